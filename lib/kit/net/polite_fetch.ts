/**
 * Crawling politely: a {@link GuardedFetcher} wrapper that keeps at most `perHost` requests in
 * flight to one site (every request of a scan to it: the snapshot's, the audit's and the rendered
 * pages'), spaces them by the site's Crawl-delay once it is known (one at a time then), and leaves
 * other hosts (the off-site lookups, a CDN) alone. Waiting requests honour their abort signal. It
 * never sends a request itself: everything still goes through the guarded fetcher it wraps. The
 * visibility scan (lib/engines/visibility/audit/polite.ts) and the Schema Markup Generator's render
 * (lib/engines/render/site_policy.ts) both keep their politeness with it.
 */
import type { FetchOptions, FetchResult, GuardedFetcher } from "./types.ts";

/**
 * The clock the Crawl-delay is kept by: `now` in ms and `wait`, which calls `go` once `ms` have
 * passed on that clock and returns its cancel. Tests inject one that moves on when waited on, so
 * the spacing is read on the clock the fetcher kept it by, never on a loaded machine's.
 */
export interface PoliteClock {
  now(): number;
  wait(ms: number, go: () => void): () => void;
}

/** The machine's monotonic clock and its timers. */
export const realPoliteClock: PoliteClock = {
  now: () => performance.now(),
  wait: (ms, go) => {
    const id = setTimeout(go, ms);
    return () => clearTimeout(id);
  },
};

/** The politeness wrapper, with what it observed. */
export interface PoliteFetcher extends GuardedFetcher {
  /** Spaces the starts of later requests to the site by this many ms (one in flight at a time). */
  setDelay(ms: number): void;
  /** Most requests to the site in flight at once so far. */
  readonly maxInFlight: number;
}

/**
 * Wraps a fetcher so the site (the hosts `isSite` says yes to, given in lower case) sees at most
 * `perHost` requests at once, spaced by the delay once one is set.
 */
export function politeSiteFetcher(
  inner: GuardedFetcher,
  isSite: (host: string) => boolean,
  perHost = 2,
  clock: PoliteClock = realPoliteClock,
): PoliteFetcher {
  let active = 0;
  let maxInFlight = 0;
  let delayMs = 0;
  let lastStart = -Infinity;
  const waiters: (() => void)[] = [];
  let cancelTimer: (() => void) | null = null;

  const limit = () => (delayMs > 0 ? 1 : perHost);
  const pump = () => {
    while (waiters.length && active < limit()) {
      const wait = lastStart + delayMs - clock.now();
      if (wait > 0) {
        cancelTimer ??= clock.wait(wait, () => {
          cancelTimer = null;
          pump();
        });
        return;
      }
      active++;
      maxInFlight = Math.max(maxInFlight, active);
      lastStart = clock.now();
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
      if (!isSite(host)) return inner.fetch(url, options);
      await acquire(options.signal);
      try {
        return await inner.fetch(url, options);
      } finally {
        release();
      }
    },
    close: () => {
      cancelTimer?.();
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
