/**
 * Concrete fix text generated for the scanned site: robots.txt lines, JSON-LD, llms.txt and
 * sitemap skeletons built from what the page itself says, so a fix can be pasted as it is.
 */
import { detectFromPageFacts } from "../schema/extract.ts";
import { buildFacts, socialProfiles } from "../schema/facts.ts";
import { generateGraph } from "../schema/generate.ts";
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { robotsAllowFix, robotsFixHow } from "./robots_fix.ts";

/** Links on the page to the entity's profiles elsewhere (social networks, Wikipedia, ...). */
export function profileLinks(ctx: ScanContext): string[] {
  return socialProfiles(ctx.facts.links);
}

/** The site's origin with a trailing slash, e.g. "https://example.com/". */
export function homeUrl(ctx: ScanContext): string {
  return new URL("/", ctx.pageUrl).href;
}

/** A display name for the site: its own name, else its domain. */
export function displayName(ctx: ScanContext): string {
  return ctx.siteName ?? ctx.snapshot.target.domain;
}

/** robots.txt lines that let the given crawlers in. */
export function robotsAllowLines(tokens: string[]): string {
  return [
    "# Let AI search engines and assistants read and cite this site",
    ...tokens.map((t) => `User-agent: ${t}`),
    "Allow: /",
  ].join("\n");
}

/** Describes robots.txt lines to delete, with their line numbers. */
export function linesToRemove(lines: { line: number | null; lineText: string | null }[]): string {
  const seen = new Map<number, string>();
  for (const l of lines) if (l.line && l.lineText) seen.set(l.line, l.lineText);
  if (!seen.size) return "";
  return "Remove or narrow these lines of robots.txt:\n" +
    [...seen].sort((a, b) => a[0] - b[0]).map(([n, t]) => `  line ${n}: ${t}`).join("\n");
}

/**
 * The `how` of a robots.txt fix that lets `tokens` read the site, computed on the site's real
 * robots.txt and checked with our matcher (see robots_fix.ts). Null when none of them is blocked
 * by the file's rules (no file, or already allowed).
 */
export function robotsFixFor(ctx: ScanContext, tokens: string[], comment?: string): string | null {
  const r = ctx.robots;
  const out = ctx.snapshot.robots;
  if (r.state !== "ok" || !out.ok) return null;
  const key = `${tokens.join(",")}|${comment ?? ""}`;
  let cache = robotsFixes.get(ctx);
  if (!cache) robotsFixes.set(ctx, cache = new Map());
  if (cache.has(key)) return cache.get(key)!;
  const fix = robotsAllowFix(out.result.body, ctx.pageUrl, tokens, comment);
  const how = fix ? robotsFixHow(fix, r.url) : null;
  cache.set(key, how);
  return how;
}

/** The `how` of "allow these blocked crawlers" (search crawlers, user fetchers). */
export function crawlerAccessHow(ctx: ScanContext, tokens: string[]): string {
  const how = robotsFixFor(ctx, tokens, "Let AI search and assistant crawlers read the site");
  return howText(
    how ??
      `robots.txt has no rule that keeps ${
        tokens.join(", ")
      } out of the home page; look for the block elsewhere (a CDN or firewall rule).`,
    "robots.txt is only half of it: if your CDN or firewall challenges bots (see the edge signal), allow these crawlers there too.",
  );
}

/**
 * The fix for a \`User-agent: *\` group that closes the home page: add groups for the AI search
 * engines and assistants (checked as every robots.txt fix is), and explain the choice instead of
 * telling the site to delete a line that also guards it from every unnamed bot.
 */
export function blanketDisallowFix(ctx: ScanContext): Fix {
  const r = ctx.robots;
  const targets = r.crawlers.filter((c) =>
    c.role !== "training" && !c.allowed && c.group === "wildcard"
  ).map((c) => c.token);
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  const how = targets.length
    ? robotsFixFor(ctx, targets, "Let AI search engines and assistants read the site")
    : null;
  const choice = allowlist
    ? "Your User-agent: * group closes the site to every crawler without a group of its own, while other groups let named crawlers in: an allowlist. Keep it; the change above only adds the AI search engines and assistants to it."
    : "This adds the AI search engines and assistants and leaves everything else as it is. Deleting the Disallow: / of the User-agent: * group instead would open the site to every crawler without a group of its own, model-training crawlers and unknown bots included: do that only if you want the whole site open to all of them.";
  return {
    what: allowlist
      ? "Add AI search engines and assistants to your robots.txt allowlist"
      : "Let AI search engines and assistants past the blanket Disallow: /",
    why:
      "User-agent: * with Disallow: / hides the whole site from every search engine and AI assistant that has no group of its own.",
    how: howText(
      how ??
        "Give each crawler you want in a group of its own with Allow: / (our check could not build one for this file).",
      choice,
    ),
    effort: "S",
  };
}

const robotsFixes = new WeakMap<ScanContext, Map<string, string | null>>();

/**
 * A minimal robots.txt to publish when there is none (or it is broken): everything open, and a
 * Sitemap line only when the scan found a sitemap to name.
 */
export function starterRobotsTxt(ctx: ScanContext): string {
  const sm = ctx.snapshot.sitemap;
  const sitemapOk = sm.outcome.ok && sm.outcome.result.status >= 200 &&
    sm.outcome.result.status < 300 && /<(urlset|sitemapindex)[\s>]/i.test(
      sm.outcome.result.body.slice(0, 2000),
    );
  return codeBlock(
    ["User-agent: *", "Allow: /", ...(sitemapOk ? ["", `Sitemap: ${sm.url}`] : [])].join("\n"),
  );
}

/**
 * The JSON-LD graph this site's home page should carry, built by the Schema Markup Generator
 * (lib/schema/generate.ts) from what the page says and merged with the JSON-LD it already has.
 * Values the page does not state are left out, and the note says what to add by hand.
 */
export function jsonLdSnippet(ctx: ScanContext): string {
  const cached = snippets.get(ctx);
  if (cached) return cached;
  const text = buildSnippet(ctx);
  snippets.set(ctx, text);
  return text;
}

/** Several signals share this fix: build it once per scan. */
const snippets = new WeakMap<ScanContext, string>();

function buildSnippet(ctx: ScanContext): string {
  const home = homeUrl(ctx);
  const generated = generateGraph({
    pageUrl: ctx.pageUrl,
    facts: buildFacts(ctx.facts, ctx.pageUrl, ctx.snapshot.target.domain),
    detected: detectFromPageFacts(ctx.facts, ctx.pageUrl),
  });
  const fill = generated.fillIn.slice(0, 8).map((f) => `${f.path}: ${f.why.replace(/\.$/, "")}`);
  const replaces = ctx.facts.jsonLd.length
    ? " (it includes what your current JSON-LD says: replace those blocks with it)"
    : "";
  return `Paste into the <head> of ${home}${replaces}:\n\n${generated.script}` +
    (fill.length ? `\n\nThen add by hand: ${fill.join("; ")}.` : "");
}

/** Internal links worth listing (nav-like: with text, not the home page itself), deduplicated. */
export function keyPages(ctx: ScanContext, max = 10): { url: string; text: string }[] {
  const home = homeUrl(ctx);
  const out: { url: string; text: string }[] = [];
  const seen = new Set<string>([home]);
  for (const l of ctx.facts.links) {
    if (!l.internal || !l.text || l.text.length > 60) continue;
    const url = l.href.replace(/#.*$/, "");
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ url, text: l.text });
    if (out.length >= max) break;
  }
  return out;
}

/** An llms.txt for this site in the llmstxt.org format, from its own title, summary and links. */
export function llmsTxtSkeleton(ctx: ScanContext): string {
  const name = displayName(ctx);
  const summary = ctx.facts.metaDescription ?? ctx.facts.openGraph["og:description"] ??
    `One sentence on what ${name} offers and for whom.`;
  const pages = keyPages(ctx, 12);
  const lines = [
    `# ${name}`,
    "",
    `> ${summary.replace(/\s+/g, " ").trim()}`,
    "",
    "## Key pages",
    "",
    ...(pages.length
      ? pages.map((p) => `- [${p.text.replace(/[[\]]/g, "")}](${p.url}): what a reader finds here`)
      : [`- [Home](${homeUrl(ctx)}): what ${name} does`]),
    "",
    "## Optional",
    "",
    `- [Sitemap](${new URL("/sitemap.xml", ctx.pageUrl).href}): every page`,
  ];
  return `Create ${new URL("/llms.txt", ctx.pageUrl).href} (Content-Type: text/plain) with:\n\n${
    lines.join("\n")
  }`;
}

/** A sitemap.xml listing the home page and the pages it links to. */
export function sitemapSkeleton(ctx: ScanContext): string {
  const today = new Date().toISOString().slice(0, 10);
  const urls = [homeUrl(ctx), ...keyPages(ctx, 20).map((p) => p.url)];
  const body = urls.map((u) => `  <url><loc>${escapeXml(u)}</loc><lastmod>${today}</lastmod></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>`;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
