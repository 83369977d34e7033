/** URL resolution and same-site tests for the page-facts extractor. */
import { getDomain } from "tldts";

/** Schemes that can never become an http(s) link; rejected before paying for a URL parse. */
const NON_HTTP_SCHEME = /^\s*(?:javascript|mailto|tel|sms|data|blob|about|file|ftp|callto|skype):/i;

/** A resolved http(s) URL. */
export interface HttpUrl {
  /** Serialized absolute URL. */
  href: string;
  /** Lowercased host without port (IPv6 in brackets). */
  hostname: string;
  /** Path, percent-encoded as the URL parser left it. */
  pathname: string;
}

/**
 * Resolves attribute URLs against the page's base and tells whether hosts belong to the page's
 * site. Results are cached per raw string and per hostname: a page repeats the same hrefs and
 * hosts many times, and URL parsing dominates link handling.
 */
export class UrlResolver {
  private base: URL | null;
  private readonly pageSite: string | null;
  /** Per raw value, one map per `dropHash` flavour. */
  private readonly linkCache = new Map<string, HttpUrl | null>();
  private readonly srcCache = new Map<string, HttpUrl | null>();
  private readonly siteCache = new Map<string, string>();

  /** `pageUrl`: the page's own URL; an invalid one leaves only absolute URLs resolvable. */
  constructor(pageUrl: string) {
    this.base = parseUrl(pageUrl, undefined);
    this.pageSite = this.base ? this.siteOf(this.base.hostname) : null;
  }

  /**
   * Applies `<base href>`. Only http(s) bases are taken: a `javascript:` or `data:` base would
   * make every relative link unresolvable, and browsers ignore those for navigation too.
   * Returns whether the base changed.
   */
  setBase(href: string): boolean {
    const url = parseUrl(href, this.base ?? undefined);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
    this.base = url;
    this.linkCache.clear();
    this.srcCache.clear();
    return true;
  }

  /** Any-scheme absolute URL (canonical and alternate links), or null when invalid. */
  absolute(raw: string): string | null {
    return parseUrl(raw, this.base ?? undefined)?.href ?? null;
  }

  /**
   * Resolves to an http(s) URL, or null for other schemes, empty values and invalid URLs.
   * `dropHash`: links are deduplicated by the document they point at, so "#top" variants of a
   * page are one link.
   */
  http(raw: string, dropHash: boolean): HttpUrl | null {
    const cache = dropHash ? this.linkCache : this.srcCache;
    let hit = cache.get(raw);
    if (hit === undefined) {
      hit = this.resolveHttp(raw, dropHash);
      cache.set(raw, hit);
    }
    return hit;
  }

  /** True when `hostname` is on the page's registrable domain ("www." and subdomains ignored). */
  isInternal(hostname: string): boolean {
    return this.pageSite !== null && this.siteOf(hostname) === this.pageSite;
  }

  private resolveHttp(raw: string, dropHash: boolean): HttpUrl | null {
    if (raw.trim() === "" || NON_HTTP_SCHEME.test(raw)) return null;
    const url = parseUrl(raw, this.base ?? undefined);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
    let href = url.href;
    // Cut the serialized fragment rather than setting url.hash, which reparses the URL. The
    // first "#" of a serialized URL always starts the fragment.
    const hash = dropHash ? href.indexOf("#") : -1;
    if (hash !== -1) href = href.slice(0, hash);
    return { href, hostname: url.hostname, pathname: url.pathname };
  }

  /**
   * The registrable domain, private suffixes included (user.github.io is its own site); for
   * hosts without one (localhost, IP addresses) the hostname minus a leading "www.".
   */
  private siteOf(hostname: string): string {
    let site = this.siteCache.get(hostname);
    if (site === undefined) {
      // "www." goes first so hosts tldts cannot place (www.localhost) still match their apex.
      const lower = hostname.toLowerCase();
      const host = lower.startsWith("www.") ? lower.slice(4) : lower;
      site = getDomain(host, { allowPrivateDomains: true }) ?? host;
      this.siteCache.set(hostname, site);
    }
    return site;
  }
}

function parseUrl(raw: string, base: URL | undefined): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}
