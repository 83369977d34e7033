/**
 * The sitemap.xml and llms.txt skeletons a fix offers, built only from what the scan saw and
 * checked with our own readers before they are offered:
 *
 * - pages are real links of the home page, on the home page's own host (a sitemap may list one
 *   host only), without a query string (tracking parameters, sessions, sorting), that are not
 *   a login, sign-up, account, cart or subscription page, and that robots.txt lets the search
 *   crawlers in (those the site admits) read;
 * - nothing is invented: no `<lastmod>` (only the site knows when a page changed), and what only
 *   the owner can write is marked FILL-IN.
 */
import type { ScanContext } from "./check.ts";
import { crawlersByRole } from "./crawlers.ts";
import { robotsAllowFix, robotsVerdicts } from "./robots_fix.ts";

/** A page worth listing: its URL and the text the site links it with. */
export interface ContentPage {
  url: string;
  text: string;
}

/** Path segments of pages that are for signed-in users or transactions, not content. */
const NOT_CONTENT =
  /(^|[/_.-])(log-?in|log-?out|sign-?in|sign-?out|sign-?up|register|registration|join|account|accounts|my-?account|profile|settings|preferences|password|auth|oauth|sso|session|session_redirect|cart|basket|checkout|subscribe|subscription|newsletter|unsubscribe|wp-admin|admin|search)([/_.-]|$)/i;

/** Link texts of such pages, and of links that name no content ("Read more", "Menu"). */
const NOT_CONTENT_TEXT =
  /^(log ?in|log ?out|sign ?in|sign ?out|sign ?up|register|join( now| free)?|subscribe( now)?|my account|account|cart|basket|checkout|search|menu|skip to (main )?content|read more|more|home|close|open|next|previous|back to top|\W*)$/i;

/**
 * The content pages the home page links to, in page order: same host, no query string, not an
 * account or transaction page, and readable by the search crawlers the site admits (at most
 * `max`). At most 30 links are considered.
 */
export function contentPages(ctx: ScanContext, max = 20): ContentPage[] {
  const page = new URL(ctx.pageUrl);
  const home = new URL("/", page).href;
  const seen = new Set<string>([home]);
  const candidates: ContentPage[] = [];
  for (const l of ctx.facts.links) {
    if (candidates.length >= 30) break;
    let u: URL;
    try {
      u = new URL(l.href);
    } catch {
      continue;
    }
    if (u.protocol !== page.protocol || u.host !== page.host || u.search) continue;
    u.hash = "";
    if (seen.has(u.href)) continue;
    seen.add(u.href);
    const text = l.text.replace(/\s+/g, " ").trim();
    if (!text || text.length > 80 || NOT_CONTENT_TEXT.test(text)) continue;
    if (NOT_CONTENT.test(u.pathname)) continue;
    candidates.push({ url: u.href, text });
  }
  // robots.txt is read in small batches, as far as needed to fill the list.
  const out: ContentPage[] = [];
  for (let i = 0; i < candidates.length && out.length < max; i += 8) {
    const batch = candidates.slice(i, i + 8);
    const allowed = robotsAllowedPaths(ctx, batch.map((c) => new URL(c.url).pathname));
    out.push(...batch.filter((c) => allowed.has(new URL(c.url).pathname)));
  }
  return out.slice(0, max);
}

/**
 * The paths robots.txt lets in every search crawler that may read the home page: a sitemap lists
 * what crawlers may fetch. When robots.txt keeps every search crawler out of the home page, the
 * report's robots.txt fix lets them in, and the sitemap is for after it: the paths are judged on
 * the file as that fix leaves it (or on the file itself when no fix could be computed).
 */
export function robotsAllowedPaths(ctx: ScanContext, paths: string[]): Set<string> {
  const out = ctx.snapshot.robots;
  if (ctx.robots.state !== "ok" || !out.ok) {
    // No robots.txt (or an unreadable one) leaves every path open; a 5xx closes them all.
    return new Set(ctx.robots.state === "server_error" ? [] : ["/", ...paths]);
  }
  const search = crawlersByRole("search").map((c) => c.token);
  const admitted = ctx.robots.crawlers.filter((c) => search.includes(c.token) && c.allowed)
    .map((c) => c.token);
  const origin = new URL(ctx.pageUrl).origin;
  let body = out.result.body;
  if (!admitted.length) {
    if (!opened.has(ctx)) {
      const fix = robotsAllowFix(body, origin, search);
      opened.set(ctx, fix?.verified ? fix.patched : body);
    }
    body = opened.get(ctx)!;
  }
  const judges = admitted.length ? admitted : search;
  const verdicts = robotsVerdicts(body, origin, ["/", ...paths]);
  return new Set(
    ["/", ...paths].filter((p) => judges.every((t) => verdicts.get(`${t} ${p}`) !== false)),
  );
}

/** robots.txt as the robots.txt fix leaves it, per scan (computed once). */
const opened = new WeakMap<ScanContext, string>();

/** Escapes text for XML character data and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  ).replace(/'/g, "&apos;");
}

/** The `<lastmod>` of a skeleton: only the site knows when a page changed. */
export const LASTMOD_FILL_IN = "FILL-IN: YYYY-MM-DD, the day this page last changed";

/**
 * A sitemap.xml (sitemaps.org) of the home page and its content pages, each `<lastmod>` a
 * FILL-IN (no date is invented: only the site knows when a page changed).
 */
export function sitemapXml(ctx: ScanContext): string {
  const home = new URL("/", ctx.pageUrl).href;
  const pages = contentPages(ctx, 20).map((p) => p.url);
  const homeAllowed = robotsAllowedPaths(ctx, []).has("/");
  const urls = [...(homeAllowed ? [home] : []), ...pages];
  const body = urls.map((u) =>
    `  <url><loc>${escapeXml(u)}</loc><lastmod>${LASTMOD_FILL_IN}</lastmod></url>`
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>`;
}

/** Whether the scan saw a real sitemap (2xx, urlset or sitemapindex) at the URL it tried. */
export function sitemapExists(ctx: ScanContext): boolean {
  const o = ctx.snapshot.sitemap.outcome;
  return o.ok && o.result.status >= 200 && o.result.status < 300 &&
    /<(urlset|sitemapindex)[\s>]/i.test(o.result.body.slice(0, 2000));
}

/**
 * An llms.txt (llmstxt.org format): the site's name, its own description as the summary, and its
 * content pages under their own link texts; what only the owner can write is marked FILL-IN.
 */
export function llmsTxt(ctx: ScanContext, name: string): string {
  const summary = ctx.facts.metaDescription ?? ctx.facts.openGraph["og:description"] ?? null;
  const pages = contentPages(ctx, 12);
  const clean = (s: string) => s.replace(/[[\]]/g, "").replace(/\s+/g, " ").trim();
  const lines = [
    `# ${clean(name)}`,
    "",
    `> ${
      summary ? clean(summary) : `FILL-IN: one sentence on what ${clean(name)} offers and for whom.`
    }`,
    "",
    "## Key pages",
    "",
    ...(pages.length
      ? pages.map((p) => `- [${clean(p.text)}](${p.url}): FILL-IN: what a reader finds here`)
      : [`- [${clean(name)}](${new URL("/", ctx.pageUrl).href}): FILL-IN: what the site does`]),
    ...(sitemapExists(ctx)
      ? ["", "## More", "", `- [Sitemap](${ctx.snapshot.sitemap.url}): every page`]
      : []),
  ];
  return lines.join("\n");
}
