/**
 * Crawling politely: a {@link GuardedFetcher} wrapper that keeps at most `perHost` requests in
 * flight to the scanned site (every request of the scan to it: the snapshot's and the audit's),
 * spaces them by the site's Crawl-delay once it is known (one at a time then), and leaves other
 * hosts (the off-site lookups) alone. Waiting requests honour their abort signal. It never sends
 * a request itself: everything still goes through the guarded fetcher it wraps.
 */
import type { FetchOptions, FetchResult, GuardedFetcher } from "../../net/types.ts";
import { parseRobotsTxt, productToken } from "../robots.ts";

/** The politeness wrapper, with what it observed. */
export interface PoliteFetcher extends GuardedFetcher {
  /** Spaces the starts of later requests to the site by this many ms (one in flight at a time). */
  setDelay(ms: number): void;
  /** Most requests to the site in flight at once so far. */
  readonly maxInFlight: number;
}

/** The site's host names: the domain and its www. variant. */
function siteHosts(domain: string): Set<string> {
  const bare = domain.toLowerCase().replace(/^www\./, "");
  return new Set([bare, `www.${bare}`]);
}

/** Wraps a fetcher so the scanned site sees at most `perHost` requests at once. */
export function politeFetcher(
  inner: GuardedFetcher,
  domain: string,
  perHost = 2,
): PoliteFetcher {
  const hosts = siteHosts(domain);
  let active = 0;
  let maxInFlight = 0;
  let delayMs = 0;
  let lastStart = -Infinity;
  const waiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const limit = () => (delayMs > 0 ? 1 : perHost);
  const pump = () => {
    while (waiters.length && active < limit()) {
      const wait = lastStart + delayMs - performance.now();
      if (wait > 0) {
        if (!timer) {
          timer = setTimeout(() => {
            timer = null;
            pump();
          }, wait);
        }
        return;
      }
      active++;
      maxInFlight = Math.max(maxInFlight, active);
      lastStart = performance.now();
      waiters.shift()!();
    }
  };
  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = waiters.indexOf(go);
        if (i >= 0) waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiters.push(go);
      pump();
    });
  const release = () => {
    active--;
    pump();
  };

  return {
    async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
      let host = "";
      try {
        host = new URL(url).hostname.toLowerCase();
      } catch {
        // The guarded fetcher reports the invalid URL.
      }
      if (!hosts.has(host)) return inner.fetch(url, options);
      await acquire(options.signal);
      try {
        return await inner.fetch(url, options);
      } finally {
        release();
      }
    },
    close: () => {
      if (timer) clearTimeout(timer);
      return inner.close();
    },
    setDelay(ms: number) {
      delayMs = Math.max(0, ms);
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
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
  const own: number[] = [];
  const wildcard: number[] = [];
  let agents: string[] = [];
  let collecting = false;
  for (const raw of robotsTxt.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!collecting) agents = [];
      collecting = true;
      agents.push(productToken(value));
      continue;
    }
    // A rule or a Crawl-delay line belongs to the group above it: a User-agent line after it
    // starts a new group.
    if (key === "allow" || key === "disallow" || key === "crawl-delay") collecting = false;
    if (key !== "crawl-delay") continue;
    const n = Math.min(Number(value), MAX_CRAWL_DELAY_SEC);
    if (Number.isNaN(n) || n <= 0) continue;
    if (agents.includes(wanted)) own.push(n);
    else if (agents.includes("*")) wildcard.push(n);
  }
  const list = own.length ? own : wildcard;
  return list.length ? Math.max(...list) : null;
}

/** The robots.txt verdict for our own crawler (its product token) on a URL. */
export { parseRobotsTxt };
