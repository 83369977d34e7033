/**
 * Crawling the scanned site politely: the scan's polite fetcher (lib/kit/net/polite_fetch.ts) for the
 * domain and its www. host, and the Crawl-delay robots.txt asks of a crawler.
 */
import type { GuardedFetcher } from "../../../kit/net/types.ts";
import {
  type PoliteClock,
  type PoliteFetcher,
  politeSiteFetcher,
} from "../../../kit/net/polite_fetch.ts";
import { parseRobotsTxt, productToken } from "../robots.ts";

export type { PoliteClock, PoliteFetcher };

/** The site's host names: the domain and its www. variant. */
function siteHosts(domain: string): Set<string> {
  const bare = domain.toLowerCase().replace(/^www\./, "");
  return new Set([bare, `www.${bare}`]);
}

/**
 * Wraps a fetcher so the scanned site (its domain and www.) sees at most `perHost` at once, its
 * Crawl-delay kept by `clock` (the machine's by default).
 */
export function politeFetcher(
  inner: GuardedFetcher,
  domain: string,
  perHost = 2,
  clock?: PoliteClock,
): PoliteFetcher {
  const hosts = siteHosts(domain);
  return politeSiteFetcher(inner, (host) => hosts.has(host), perHost, clock);
}

/**
 * The longest Crawl-delay taken at its word, in seconds (a day). A larger value, `Infinity` or
 * one too large for a double ("1e400") is read as this: a site asking for an endless delay gets
 * no more requests from the audit, never one without a delay.
 */
export const MAX_CRAWL_DELAY_SEC = 86_400;

/**
 * The Crawl-delay (seconds) robots.txt asks of a crawler: the value in the group naming its
 * product token, else in the `*` group, at most {@link MAX_CRAWL_DELAY_SEC}; null when none (or
 * not a positive number: NaN, zero and negative values are ignored).
 */
export function crawlDelayFor(robotsTxt: string, token: string): number | null {
  const wanted = productToken(token);
  // The longest delay of each kind (a running maximum: no list of every line's value).
  let own: number | null = null;
  let wildcard: number | null = null;
  // Whether the group being read names our token, or `*` (flags, not a list searched per line).
  let named = false;
  let starred = false;
  let collecting = false;
  for (const raw of robotsTxt.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!collecting) named = starred = false;
      collecting = true;
      const agent = productToken(value);
      named ||= agent === wanted;
      starred ||= agent === "*";
      continue;
    }
    // A rule or a Crawl-delay line belongs to the group above it: a User-agent line after it
    // starts a new group.
    if (key === "allow" || key === "disallow" || key === "crawl-delay") collecting = false;
    if (key !== "crawl-delay") continue;
    const n = Math.min(Number(value), MAX_CRAWL_DELAY_SEC);
    if (Number.isNaN(n) || n <= 0) continue;
    if (named) own = Math.max(own ?? 0, n);
    else if (starred) wildcard = Math.max(wildcard ?? 0, n);
  }
  return own ?? wildcard;
}

/** The robots.txt verdict for our own crawler (its product token) on a URL. */
export { parseRobotsTxt };
