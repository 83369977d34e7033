/**
 * Concrete fix text generated for the scanned site: robots.txt lines, JSON-LD, llms.txt and
 * sitemap skeletons built from what the page itself says, so a fix can be pasted as it is.
 */
import { detectFromPageFacts } from "../structured/extract.ts";
import { buildFacts } from "../structured/facts.ts";
import { generateGraph } from "../structured/generate.ts";
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { ORGANIZATION_TYPES } from "../structured/page_graph.ts";
import { robotsAllowFix, robotsFixHow } from "./robots_fix.ts";
import { identityLinks, ownName, SAME_AS_FILL_IN } from "./same_as.ts";
import { contentPages, llmsTxt, sitemapXml } from "./skeletons.ts";

/** The entity's own profiles elsewhere that the page gives evidence for (see same_as.ts). */
export function profileLinks(ctx: ScanContext): string[] {
  return identityLinks(ctx).map((l) => l.url);
}

/** The site's origin with a trailing slash, e.g. "https://example.com/". */
export function homeUrl(ctx: ScanContext): string {
  return new URL("/", ctx.pageUrl).href;
}

/**
 * A display name for the site in fixes: the name it states for itself (its own Organization
 * markup, og:site_name, WebSite), else the scan's reading of its name, else its domain.
 */
export function displayName(ctx: ScanContext): string {
  return ownName(ctx) ?? ctx.snapshot.target.domain;
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

/** What an allowlist robots.txt is told: keep it, the fix only adds to it. */
const ALLOWLIST_NOTE =
  "Your User-agent: * group closes the site to every crawler without a group of its own, while other groups let named crawlers in: an allowlist. Keep it; the change above only adds the AI search engines and assistants to it.";

/** The `how` of "allow these blocked crawlers" (search crawlers, user fetchers). */
export function crawlerAccessHow(ctx: ScanContext, tokens: string[]): string {
  const r = ctx.robots;
  const underStar = tokens.every((t) =>
    r.crawlers.some((c) => c.token === t && c.group === "wildcard")
  );
  // (Not on an allowlist file, whose blanket Disallow: / may well be judged deliberate.)
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  if (r.wildcardBlocksHome && !allowlist && underStar && blanketTargets(ctx).length) {
    // The blanket Disallow: / fix adds a group for these crawlers already: one change, not two.
    return `These crawlers fall under the User-agent: * group's Disallow: /. The fix "${
      blanketDisallowFix(ctx).what
    }" adds them (with the other AI search engines and assistants) in one group: apply that one.`;
  }
  const how = robotsFixFor(ctx, tokens, "Let AI search and assistant crawlers read the site");
  return howText(
    how ??
      `robots.txt has no rule that keeps ${
        tokens.join(", ")
      } out of the home page; look for the block elsewhere (a CDN or firewall rule).`,
    ...(how && r.wildcardBlocksHome && allowlist && underStar ? [ALLOWLIST_NOTE] : []),
    "If your CDN or firewall challenges bots, allow these crawlers there too.",
  );
}

/**
 * The fix for a \`User-agent: *\` group that closes the home page: add groups for the AI search
 * engines and assistants (checked as every robots.txt fix is), and explain the choice instead of
 * telling the site to delete a line that also guards it from every unnamed bot.
 */
export function blanketDisallowFix(ctx: ScanContext): Fix {
  const r = ctx.robots;
  const targets = blanketTargets(ctx);
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  const how = targets.length
    ? robotsFixFor(ctx, targets, "Let AI search engines and assistants read the site")
    : null;
  const choice = allowlist
    ? ALLOWLIST_NOTE
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

/** The AI search engines and assistants the `*` group's Disallow: / keeps out. */
function blanketTargets(ctx: ScanContext): string[] {
  return ctx.robots.crawlers.filter((c) =>
    c.role !== "training" && !c.allowed && c.group === "wildcard"
  ).map((c) => c.token);
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
 * (lib/structured/generate.ts) from what the page says and merged with the JSON-LD it already has.
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
  const base = buildFacts(ctx.facts, ctx.pageUrl, ctx.snapshot.target.domain);
  const generated = generateGraph({
    pageUrl: ctx.pageUrl,
    // The name the scan found for the site, and only identity links it can vouch for.
    facts: {
      ...base,
      siteName: base.siteName ?? ownName(ctx),
      socialProfiles: identityLinks(ctx).map((l) => l.url),
    },
    detected: detectFromPageFacts(ctx.facts, ctx.pageUrl),
  });
  const types = new Set(generated.nodes.map((n) => n.type));
  const hasEntity = [...types].some((t) => t === "Person" || isOrganizationType(t));
  const fillInGraph = [
    ...(hasEntity ? [] : [{
      "@type": "Organization",
      "@id": `${home}#organization`,
      name: "FILL-IN: your organisation's name",
      url: home,
    }]),
    ...(types.has("WebSite") ? [] : [{
      "@type": "WebSite",
      "@id": `${home}#website`,
      name: "FILL-IN: your site's name",
      url: home,
      ...(hasEntity ? {} : { publisher: { "@id": `${home}#organization` } }),
    }]),
  ];
  const fill = generated.fillIn
    .filter((f) => !(f.path === "Organization.name" && !hasEntity) && f.path !== "WebSite.name")
    .slice(0, 8).map((f) => `- ${f.path}: ${f.why.replace(/\.$/, "")}.`);
  const replaces = ctx.facts.jsonLd.length
    ? " It includes what your current JSON-LD says: replace those blocks with it."
    : "";
  return howText(
    `Paste into the <head> of ${home}; everything in it is taken from your page.${replaces}`,
    codeBlock(generated.script, "html"),
    fillInGraph.length > 0 &&
      `Your page states no name for ${
        hasEntity ? "the site" : "who is behind the site"
      }, so this part is yours to write: replace each FILL-IN, then paste it into the <head> too (the @id links it to the graph above).`,
    fillInGraph.length > 0 &&
      codeBlock(
        `<script type="application/ld+json">\n${
          JSON.stringify({ "@context": "https://schema.org", "@graph": fillInGraph }, null, 2)
        }\n</script>`,
        "html",
      ),
    fill.length > 0 && `Then add by hand what the page does not say:\n${fill.join("\n")}`,
  );
}

/** Whether a generated node type is an organisation (or a subtype the scan knows). */
function isOrganizationType(t: string): boolean {
  return (ORGANIZATION_TYPES as readonly string[]).includes(t);
}

/**
 * The `sameAs` fix: the identity links the scan can vouch for (see same_as.ts), or a clearly
 * marked template when it has none, never other people's links found on the page.
 */
export function sameAsHow(ctx: ScanContext): string {
  const links = identityLinks(ctx);
  const caution =
    "List only your organisation's own profiles: not share links, single posts or videos, other people's accounts or repositories, or things your pages write about.";
  if (!links.length) {
    return howText(
      `We found no profile on the page we could tie to ${
        displayName(ctx)
      } (a rel="me" link, or a profile whose name is your brand or domain), so this is a template: replace each FILL-IN with your own profile URL and drop the ones you do not have, then add it to your Organization node.`,
      codeBlock(`"sameAs": ${JSON.stringify(SAME_AS_FILL_IN, null, 2)}`, "json"),
      caution,
    );
  }
  const from = [
    links.some((l) => l.source === "markup") && "your markup already lists",
    links.some((l) => l.source === "rel-me") && 'your page marks with rel="me"',
    links.some((l) => l.source === "handle") && "carry your brand or domain name as their handle",
  ].filter(Boolean).join(", ");
  return howText(
    `Add to your Organization node the profiles we could tie to you (those ${from}):`,
    codeBlock(`"sameAs": ${JSON.stringify(links.map((l) => l.url), null, 2)}`, "json"),
    `Add any other official profile of yours (Wikidata, LinkedIn, ...) the page does not link to. ${caution}`,
  );
}

/** The content pages the home page links to (see skeletons.ts's contentPages). */
export function keyPages(ctx: ScanContext, max = 10): { url: string; text: string }[] {
  return contentPages(ctx, max);
}

/**
 * The `how` of the llms.txt fix: a skeleton in the llmstxt.org format from the site's own name,
 * description and content pages (see skeletons.ts), with FILL-IN marks for what the owner writes.
 */
export function llmsTxtSkeleton(ctx: ScanContext): string {
  return howText(
    `Create ${new URL("/llms.txt", ctx.pageUrl).href}, served as text/plain, from this skeleton:`,
    codeBlock(llmsTxt(ctx, displayName(ctx)), "markdown"),
    "Replace each FILL-IN with your own words: the pages are real links of your home page under their own link texts, but only you can say what each one is for.",
  );
}

/**
 * A sitemap.xml listing the home page and the content pages it links to: one host, only URLs
 * robots.txt lets search crawlers read, no login, account or tracking URLs, no `<lastmod>`.
 */
export function sitemapSkeleton(ctx: ScanContext): string {
  return sitemapXml(ctx);
}

/** Escapes text for an HTML attribute value or element text (what a page said goes in code). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

/** The `how` of the title fix: a template, since only the owner can say what the page offers. */
export function titleHow(ctx: ScanContext): string {
  return howText(
    "Write a title of 10-70 characters that says what the page offers and for whom, then your name; replace the FILL-IN:",
    codeBlock(
      `<title>FILL-IN: what you offer, for whom | ${escapeHtml(displayName(ctx))}</title>`,
      "html",
    ),
  );
}

/** The `how` of the meta description fix. */
export function descriptionHow(): string {
  return howText(
    "Add to the <head>, replacing the FILL-IN with one or two sentences (50-170 characters) on what the page offers and for whom:",
    codeBlock('<meta name="description" content="FILL-IN">', "html"),
  );
}

/**
 * The `how` of the canonical fix. A canonical to another site is right on a syndicated copy (it
 * credits the original), so that case explains the choice instead of asserting one answer.
 */
export function canonicalHow(ctx: ScanContext): string {
  const c = ctx.facts.canonical;
  const self = codeBlock(`<link rel="canonical" href="${escapeHtml(ctx.pageUrl)}">`, "html");
  const page = new URL(ctx.pageUrl);
  const bare = (h: string) => h.replace(/^www\./, "");
  if (c && bare(new URL(c).hostname) !== bare(page.hostname)) {
    return howText(
      `It depends on whose page this is. If it is a syndicated copy of a page first published at ${c}, the canonical is right: keep it, and AI systems will credit the original. If this page is the original, point the canonical at itself instead:`,
      self,
    );
  }
  if (ctx.facts.canonicalCount > 1) {
    return howText(
      `Keep a single <link rel="canonical"> in the <head> (templates and plugins often add a second one), pointing at the URL you want cited:`,
      self,
    );
  }
  return howText("Add to the <head>:", self);
}

/**
 * The `how` of the Open Graph fix: tags from what the page states. og:image is offered only for an
 * image the page itself names (twitter:image); otherwise it is a separate fill-in.
 */
export function openGraphHow(ctx: ScanContext): string {
  const og = ctx.facts.openGraph;
  const tag = (p: string, v: string) => `<meta property="${p}" content="${escapeHtml(v)}">`;
  const title = og["og:title"] ?? ctx.facts.title ?? null;
  const description = og["og:description"] ?? ctx.facts.metaDescription ?? null;
  let image = og["og:image"] ?? null;
  if (!image && ctx.facts.twitter["twitter:image"]) {
    try {
      image = new URL(ctx.facts.twitter["twitter:image"], ctx.pageUrl).href;
    } catch { /* not a URL */ }
  }
  const facts = [
    ...(og["og:title"] || !title ? [] : [tag("og:title", title)]),
    ...(og["og:description"] || !description ? [] : [tag("og:description", description)]),
    ...(og["og:image"] || !image ? [] : [tag("og:image", image)]),
    ...(og["og:url"] ? [] : [tag("og:url", ctx.pageUrl)]),
    ...(og["og:site_name"] || !ownName(ctx) ? [] : [tag("og:site_name", ownName(ctx)!)]),
  ];
  const fill = [
    ...(title ? [] : ['<meta property="og:title" content="FILL-IN: the page\'s title">']),
    ...(description
      ? []
      : ['<meta property="og:description" content="FILL-IN: one sentence on the page">']),
    ...(image ? [] : ['<meta property="og:image" content="FILL-IN: https URL of an image">']),
  ];
  return howText(
    facts.length > 0 && "Add to the <head> (taken from what your page already says):",
    facts.length > 0 && codeBlock(facts.join("\n"), "html"),
    fill.length > 0 &&
      `${facts.length ? "Then add" : "Add"} these, replacing each FILL-IN${
        image
          ? ""
          : " (for og:image, the full URL of an image that exists on your site, ideally 1200x630 pixels)"
      }:`,
    fill.length > 0 && codeBlock(fill.join("\n"), "html"),
  );
}
