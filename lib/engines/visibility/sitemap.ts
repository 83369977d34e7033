/** A light, bounded reading of a sitemap: enough to judge its health without a full XML parser. */

/** What a sitemap holds. */
export interface SitemapReport {
  kind: "urlset" | "sitemapindex" | "invalid";
  /** <loc> entries (urls, or child sitemaps for an index). */
  locs: number;
  /** Entries with a <lastmod>. */
  lastmods: number;
  /** Newest lastmod seen (ISO string), or null. */
  newest: string | null;
  /** <loc>s whose host differs from the site's (ignoring www.). */
  foreign: number;
  /** For an index: the first child sitemap URLs (at most 10). */
  childLocs: string[];
}

/** The root element of a sitemap, read from its head only (cheap: no pass over the entries). */
export function sitemapKind(body: string): SitemapReport["kind"] {
  const head = body.slice(0, 2000).replace(/^\uFEFF/, "");
  return /<urlset[\s>]/i.test(head)
    ? "urlset"
    : /<sitemapindex[\s>]/i.test(head)
    ? "sitemapindex"
    : "invalid";
}

/**
 * Counts a sitemap's entries with regular expressions over at most its first 5 MB (the fetcher's
 * cap), which is linear and cannot be made to blow up by nesting.
 */
export function readSitemap(body: string, siteHost: string): SitemapReport {
  const kind = sitemapKind(body);
  if (kind === "invalid") {
    return { kind, locs: 0, lastmods: 0, newest: null, foreign: 0, childLocs: [] };
  }
  const childLocs: string[] = [];
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, "");
  let locs = 0;
  let foreign = 0;
  for (const m of body.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
    locs++;
    try {
      const loc = new URL(m[1].replace(/&amp;/g, "&"));
      if (kind === "sitemapindex" && childLocs.length < 10 && /^https?:$/.test(loc.protocol)) {
        childLocs.push(loc.href);
      }
      if (bare(loc.hostname) !== bare(siteHost)) foreign++;
    } catch {
      foreign++;
    }
  }
  let lastmods = 0;
  let newest: string | null = null;
  for (const m of body.matchAll(/<lastmod>\s*([^<\s]+)\s*<\/lastmod>/gi)) {
    lastmods++;
    const t = Date.parse(m[1]);
    if (!Number.isNaN(t) && (!newest || t > Date.parse(newest))) newest = new Date(t).toISOString();
  }
  return { kind, locs, lastmods, newest, foreign, childLocs };
}
