/**
 * Choosing the representative sample of a site's pages: candidates come from the sitemap(s)
 * (most recent `lastmod` first) and the home page's own links; they are filtered (same host, no
 * login/account/search/cart pages, no tracking parameters, no files) and spread across templates
 * by grouping URLs by path shape (`/blog/*`, `/products/*`, top-level pages) and taking one per
 * group in turn, so ten blog posts do not crowd out the products and docs. The About and Contact
 * pages come first whenever they are found. Pure: no fetches.
 */
import type { PageFacts } from "../../html/types.ts";
import { charsOf, trimEnd } from "../../../kit/text/trim.ts";

/** One URL that may be sampled. */
export interface Candidate {
  url: string;
  source: "sitemap" | "links";
  /** Epoch ms of the sitemap's <lastmod>, or null. */
  lastmod: number | null;
  /** Set for the About and Contact pages the home page links to. */
  role: "about" | "contact" | null;
}

/** Entries of a sitemap read at most (a 5 MB sitemap holds about 50,000). */
const MAX_SITEMAP_ENTRIES = 50_000;
/** Home-page links looked at. */
const MAX_LINKS = 500;
/** Sitemap entries kept per path shape (the newest), and path shapes kept. */
const PER_SHAPE = 50;
const MAX_SHAPES = 100;

/** Path segments that name pages a crawler should not sample: sessions, carts, search. */
const PRIVATE_SEGMENT =
  /^(login|log-in|signin|sign-in|signup|sign-up|register|logout|log-out|signout|sign-out|account|accounts|my-account|myaccount|profile|user|users|cart|basket|checkout|wp-admin|wp-login\.php|admin|search|suche|recherche|buscar)$/i;
/** Query parameters that track or search rather than name a page. */
const TRACKING_PARAM =
  /^(utm_[a-z_]+|gclid|fbclid|msclkid|dclid|yclid|mc_cid|mc_eid|_hsenc|_hsmi|ref|ref_src|s|q|query|search|sessionid|sid|phpsessid|jsessionid)$/i;
/** File extensions that are not HTML pages. */
const FILE_EXT =
  /\.(pdf|jpe?g|png|gif|webp|svg|ico|zip|gz|tgz|rar|7z|mp[34]|m4a|mov|avi|webm|css|js|mjs|json|xml|txt|md|markdown|rss|atom|csv|xlsx?|docx?|pptx?|woff2?|ttf|eot|exe|dmg|apk)$/i;

/**
 * The text of each `<url>...</url>` block, as `/<url>([\s\S]*?)<\/url>/gi` gives it, from one
 * pass over the tags: that expression scanned to the end of the body again from every `<url>`
 * that no `</url>` follows.
 */
function* urlBlocks(body: string): Generator<string> {
  let open = -1;
  for (const tag of body.matchAll(/<(\/?)url>/gi)) {
    if (open < 0 && tag[1] === "") open = tag.index + tag[0].length;
    else if (open >= 0 && tag[1] === "/") {
      yield body.slice(open, tag.index);
      open = -1;
    }
  }
}

/** The sitemap's `<url>` entries: loc and lastmod, in file order (bounded, linear, lazy). */
export function* sitemapEntries(body: string): Generator<{ loc: string; lastmod: number | null }> {
  let n = 0;
  for (const entry of urlBlocks(body)) {
    const loc = entry.match(/<loc>\s*([^<\s]+)\s*<\/loc>/i)?.[1];
    if (!loc) continue;
    const lm = entry.match(/<lastmod>\s*([^<\s]+)\s*<\/lastmod>/i)?.[1];
    const t = lm ? Date.parse(lm) : NaN;
    yield { loc: loc.replace(/&amp;/g, "&"), lastmod: Number.isNaN(t) ? null : t };
    if (++n >= MAX_SITEMAP_ENTRIES) return;
  }
}

/**
 * The URL as we would sample it (fragment dropped), or null when it must not be sampled: another
 * host, not http(s), a login/account/search/cart page, a tracking or search parameter, a file.
 */
export function sampleableUrl(raw: string, homeUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(raw, homeUrl);
  } catch {
    return null;
  }
  const home = new URL(homeUrl);
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  if (u.hostname !== home.hostname || u.username || u.password) return null;
  u.hash = "";
  const segments = u.pathname.split("/").filter(Boolean);
  if (segments.some((s) => PRIVATE_SEGMENT.test(safeDecode(s)))) return null;
  if (FILE_EXT.test(u.pathname)) return null;
  for (const key of u.searchParams.keys()) if (TRACKING_PARAM.test(key)) return null;
  // The home page itself is already read.
  if (samePage(u.href, home.href)) return null;
  return u.href;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A directory's index file names the directory: `/docs/index.html` is `/docs/`. */
const INDEX_FILE = /\/(index|default)\.(html?|php|aspx?)$/i;
const SLASH = charsOf("/");

/**
 * Two URLs name the same page when they differ only by a trailing slash, a directory index file
 * or the scheme.
 */
export function samePage(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      const u = new URL(s);
      return `${u.hostname}${trimEnd(u.pathname.replace(INDEX_FILE, "/"), SLASH)}${u.search}`;
    } catch {
      return s;
    }
  };
  return norm(a) === norm(b);
}

/**
 * The template a URL probably uses, from its path shape: `/blog/a` and `/blog/b` share
 * `/blog/*`; top-level pages (`/about`, `/pricing`) share `/*`.
 */
export function pathShape(url: string): string {
  const segments = new URL(url).pathname.split("/").filter(Boolean);
  if (segments.length <= 1) return "/*";
  return `/${segments[0].toLowerCase()}${"/*".repeat(segments.length - 1)}`;
}

/**
 * Candidates from the sitemaps' entries (newest first) and the home page's links (page order);
 * `total` counts every sampleable URL seen, including sitemap entries not kept.
 */
export function collectCandidates(
  sitemapBodies: string[],
  facts: PageFacts,
  homeUrl: string,
): { candidates: Candidate[]; total: number } {
  const seen = new Set<string>();
  const key = (url: string) => {
    const u = new URL(url);
    return `${trimEnd(u.pathname.replace(INDEX_FILE, "/"), SLASH)}${u.search}`;
  };
  // Only the newest entries of each path shape are kept (at most PER_SHAPE of MAX_SHAPES
  // shapes), so a 50,000-URL sitemap costs the same memory as a small one.
  const byShape = new Map<string, { c: Candidate; i: number }[]>();
  const newest = (a: { c: Candidate; i: number }, b: { c: Candidate; i: number }) =>
    (b.c.lastmod ?? -Infinity) - (a.c.lastmod ?? -Infinity) || a.i - b.i;
  let total = 0;
  for (const body of sitemapBodies) {
    for (const e of sitemapEntries(body)) {
      const url = sampleableUrl(e.loc, homeUrl);
      if (!url) continue;
      const shape = pathShape(url);
      let list = byShape.get(shape);
      if (!list) {
        if (byShape.size >= MAX_SHAPES) continue;
        byShape.set(shape, list = []);
      }
      const k = key(url);
      if (list.some((x) => key(x.c.url) === k)) continue;
      total++;
      list.push({ c: { url, source: "sitemap", lastmod: e.lastmod, role: null }, i: total });
      if (list.length > 2 * PER_SHAPE) list.sort(newest).length = PER_SHAPE;
    }
  }
  // Newest first; entries without a lastmod keep their file order after the dated ones.
  const fromSitemap = [...byShape.values()].flatMap((l) => l.sort(newest).slice(0, PER_SHAPE))
    .sort(newest).map((x) => x.c);
  for (const c of fromSitemap) seen.add(key(c.url));
  const fromLinks: Candidate[] = [];
  for (const link of facts.links.slice(0, MAX_LINKS)) {
    if (!link.internal || /(^|\s)nofollow(\s|$)/.test(link.rel)) continue;
    const url = sampleableUrl(link.href, homeUrl);
    if (!url || seen.has(key(url))) continue;
    seen.add(key(url));
    fromLinks.push({ url, source: "links", lastmod: null, role: null });
  }
  const all = [...fromSitemap, ...fromLinks];
  for (const role of ["about", "contact"] as const) {
    const href = facts.trustLinks[role];
    const url = href ? sampleableUrl(href, homeUrl) : null;
    if (!url) continue;
    const found = all.find((c) => key(c.url) === key(url));
    if (found) found.role = role;
    else all.push({ url, source: "links", lastmod: null, role });
  }
  return { candidates: all, total: total + all.length - fromSitemap.length };
}

/**
 * Picks up to `max` candidates: About and Contact first, then one URL per path shape in turn
 * (shapes ordered by their best candidate: the newest sitemap entry, then page order).
 */
export function pickSample(candidates: Candidate[], max: number): Candidate[] {
  if (max <= 0) return [];
  const picked: Candidate[] = [];
  for (const role of ["about", "contact"] as const) {
    const c = candidates.find((x) => x.role === role);
    if (c && !picked.includes(c) && picked.length < max) picked.push(c);
  }
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (picked.includes(c)) continue;
    const shape = pathShape(c.url);
    const list = groups.get(shape);
    if (list) list.push(c);
    else groups.set(shape, [c]);
  }
  const queues = [...groups.values()];
  let round = 0;
  while (picked.length < max) {
    let took = false;
    for (const q of queues) {
      if (round < q.length && picked.length < max) {
        picked.push(q[round]);
        took = true;
      }
    }
    if (!took) break;
    round++;
  }
  return picked;
}
