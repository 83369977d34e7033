/**
 * Politeness for a render that has no site audit around it (the Schema Markup Generator renders
 * one page): robots.txt read once for our own agent (by the caller's RFC 9309 reader: the
 * visibility checker's own parser, handed in by the service's scanner, so one parser decides for
 * both services), and a fetcher wrapper that keeps at most 2 requests in flight to the site,
 * spaced by its Crawl-delay (the one polite fetcher, lib/kit/net/polite_fetch.ts). The visibility scan
 * does not use this: its audit's polite fetcher and robots.txt verdict hold for the render too
 * (lib/engines/visibility/render_step.ts).
 */
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { politeSiteFetcher } from "../../kit/net/polite_fetch.ts";

/** What a site's robots.txt tells our own crawler. */
export interface RobotsRules {
  /** May our crawler fetch this URL of the site? */
  allows(url: string): boolean;
  /** The Crawl-delay asked of our crawler, in seconds, or null. */
  crawlDelaySec: number | null;
}

/** Reads a robots.txt for a user agent (lib/engines/visibility/render_step.ts robotsForRender). */
export type RobotsReader = (robotsTxt: string, userAgent: string) => RobotsRules;

/** What the render may do on the site. */
export interface SitePolicy {
  fetcher: GuardedFetcher;
  isSite(host: string): boolean;
  robotsAllows(url: string): boolean;
  /** The Crawl-delay honoured, in ms (0: none). */
  delayMs: number;
  /**
   * Why the site is not rendered at all: its Crawl-delay is longer than the scan waits (a render
   * makes a request per script, style and data file, so it could not keep the delay), else null.
   */
  refusal: string | null;
}

/** Why a site asking `delaySec` of Crawl-delay is not rendered when a scan waits `maxDelayMs`. */
export function crawlDelayRefusal(delaySec: number, maxDelayMs: number): string {
  return `robots.txt asks our crawler for a Crawl-delay of ${delaySec} s, longer than the ${
    maxDelayMs / 1000
  } s this scanner waits between requests: a render (a request per script, style and data ` +
    "file) would not keep it";
}

/** robots.txt is read up to the RFC's 500 KiB minimum. */
const ROBOTS_BYTES = 512 * 1024;

/**
 * Reads the site's robots.txt (a 4xx or a failure means no rules; a 5xx closes the site, as RFC
 * 9309 says) and builds the policy for `pageUrl`'s site: its Crawl-delay is kept between requests
 * when it is at most `maxDelayMs`, and a longer one refuses the render (never a shorter wait).
 */
export async function sitePolicy(
  fetcher: GuardedFetcher,
  pageUrl: string,
  userAgent: string,
  maxDelayMs: number,
  readRobots: RobotsReader,
  signal?: AbortSignal,
): Promise<SitePolicy> {
  const page = new URL(pageUrl);
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, "");
  const isSite = (host: string) => bare(host) === bare(page.hostname);
  const robotsUrl = new URL("/robots.txt", page.origin).href;
  let allows: (url: string) => boolean = () => true;
  let delayMs = 0;
  let refusal: string | null = null;
  try {
    const r = await fetcher.fetch(robotsUrl, { maxBytes: ROBOTS_BYTES, signal });
    if (r.status >= 500) allows = () => false;
    else if (r.status >= 200 && r.status < 300) {
      const robots = readRobots(r.body, userAgent);
      allows = (url) => new URL(url).host !== page.host || robots.allows(url);
      const asked = Math.max(0, robots.crawlDelaySec ?? 0);
      if (asked * 1000 > maxDelayMs) refusal = crawlDelayRefusal(asked, maxDelayMs);
      else delayMs = asked * 1000;
    }
  } catch {
    // Unreachable robots.txt: no rules (as for the page itself, which was just fetched).
  }
  return {
    fetcher: limitSite(fetcher, isSite, delayMs),
    isSite,
    robotsAllows: allows,
    delayMs,
    refusal,
  };
}

/** At most `perHost` requests in flight to the site at once (one, `delayMs` apart, with a delay). */
export function limitSite(
  inner: GuardedFetcher,
  isSite: (host: string) => boolean,
  delayMs: number,
  perHost = 2,
): GuardedFetcher {
  const polite = politeSiteFetcher(inner, isSite, perHost);
  polite.setDelay(delayMs);
  return polite;
}
