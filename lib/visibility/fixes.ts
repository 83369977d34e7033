/**
 * Concrete fix text generated for the scanned site: robots.txt lines, JSON-LD, llms.txt and
 * sitemap skeletons built from what the page itself says, so a fix can be pasted as it is.
 */
import type { ScanContext } from "./check.ts";
import { nodesOfType, ORGANIZATION_TYPES } from "./jsonld.ts";

/** Hosts of profiles that identify an entity (used for sameAs). */
const PROFILE_HOSTS = [
  "linkedin.com",
  "x.com",
  "twitter.com",
  "facebook.com",
  "instagram.com",
  "youtube.com",
  "github.com",
  "wikipedia.org",
  "wikidata.org",
  "crunchbase.com",
  "tiktok.com",
  "threads.net",
  "bsky.app",
  "mastodon.social",
  "pinterest.com",
];

/** Links on the page to the entity's profiles elsewhere (social networks, Wikipedia, ...). */
export function profileLinks(ctx: ScanContext): string[] {
  const out = new Set<string>();
  for (const link of ctx.facts.links) {
    if (link.internal) continue;
    let host: string;
    try {
      host = new URL(link.href).hostname.replace(/^www\./, "");
    } catch {
      continue;
    }
    if (PROFILE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) {
      const path = new URL(link.href).pathname;
      // A share button (/sharer, /intent) is not a profile.
      if (!/share|intent|sharer|\/home$/i.test(path) && path.length > 1) out.add(link.href);
    }
  }
  return [...out].slice(0, 10);
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
 * An Organization + WebSite + WebPage graph for this site, filled from the page. Values the page
 * does not state are left out, and the note says what to add by hand.
 */
export function jsonLdSnippet(ctx: ScanContext): string {
  const home = homeUrl(ctx);
  const name = displayName(ctx);
  const orgId = `${home}#organization`;
  const existingOrg = nodesOfType(ctx.nodes, ORGANIZATION_TYPES)[0]?.data;
  const org: Record<string, unknown> = {
    "@type": "Organization",
    "@id": orgId,
    name,
    url: home,
  };
  const logo = typeof existingOrg?.logo === "string" ? existingOrg.logo : null;
  if (logo) org.logo = logo;
  const profiles = profileLinks(ctx);
  if (profiles.length) org.sameAs = profiles;
  const website: Record<string, unknown> = {
    "@type": "WebSite",
    "@id": `${home}#website`,
    url: home,
    name,
    publisher: { "@id": orgId },
  };
  if (ctx.facts.lang) website.inLanguage = ctx.facts.lang;
  const page: Record<string, unknown> = {
    "@type": "WebPage",
    "@id": `${ctx.pageUrl}#webpage`,
    url: ctx.pageUrl,
    name: ctx.facts.title ?? name,
    isPartOf: { "@id": `${home}#website` },
    about: { "@id": orgId },
  };
  if (ctx.facts.metaDescription) page.description = ctx.facts.metaDescription;
  const graph = { "@context": "https://schema.org", "@graph": [org, website, page] };
  const missing = [
    logo ? null : "logo (an absolute URL of your logo image)",
    profiles.length ? null : "sameAs (your LinkedIn, Wikipedia/Wikidata and social profile URLs)",
  ].filter(Boolean);
  return `Paste into the <head> of ${home}:\n\n<script type="application/ld+json">\n${
    JSON.stringify(graph, null, 2)
  }\n</script>` + (missing.length ? `\n\nThen add by hand: ${missing.join("; ")}.` : "");
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
