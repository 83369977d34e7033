/**
 * Concrete fix text generated for the scanned site: robots.txt lines, JSON-LD, llms.txt and
 * sitemap skeletons built from what the page itself says, so a fix can be pasted as it is.
 */
import { detectFromPageFacts } from "../schema/extract.ts";
import { buildFacts, socialProfiles } from "../schema/facts.ts";
import { generateGraph } from "../schema/generate.ts";
import type { ScanContext } from "./check.ts";

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
