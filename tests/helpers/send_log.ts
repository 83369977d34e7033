/**
 * A scan's requests as they leave its polite fetcher, timed on a stepped clock. The scan keeps
 * the site's Crawl-delay by the clock it is given (`politeClock` in its deps); this one moves on
 * only when the fetcher waits on it, by as long as it waits. So the spacing a test reads is the
 * one the scanner kept, to the millisecond, however late a loaded machine runs its timers: a
 * scanner that waited less than the delay shows a shorter gap, one that did not wait shows none.
 */
import type { Config } from "../../lib/kit/config.ts";
import { createGuardedFetcher } from "../../lib/kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../../lib/kit/net/types.ts";
import type { PoliteClock } from "../../lib/kit/net/polite_fetch.ts";

/** One request as it left the scanner. */
export interface SentRequest {
  host: string;
  path: string;
  /** The stepped clock's time (ms) when the polite fetcher let it go. */
  at: number;
}

/** A clock that stands still until waited on, then moves on by the wait (on the next task). */
export function steppedClock(): PoliteClock {
  let t = 0;
  return {
    now: () => t,
    wait: (ms, go) => {
      const until = t + ms;
      const id = setTimeout(() => {
        t = Math.max(t, until);
        go();
      }, 0);
      return () => clearTimeout(id);
    },
  };
}

/** The fetcher and the clock to hand a scan, and what it sent (in order). */
export function sendLog(
  config: Config,
): { fetcher: GuardedFetcher; clock: PoliteClock; sent: SentRequest[] } {
  const inner = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    requestTimeoutMs: config.requestTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
  });
  const clock = steppedClock();
  const sent: SentRequest[] = [];
  const fetcher: GuardedFetcher = {
    fetch: (url, options) => {
      const u = new URL(url);
      sent.push({ host: u.hostname, path: u.pathname, at: clock.now() });
      return inner.fetch(url, options);
    },
    close: () => inner.close(),
  };
  return { fetcher, clock, sent };
}

/** Asserts each request in `sent` left at least `delayMs` after the one before. */
export function assertSpaced(sent: SentRequest[], delayMs: number): void {
  for (let i = 1; i < sent.length; i++) {
    const gap = sent[i].at - sent[i - 1].at;
    if (gap < delayMs) {
      throw new Error(`${sent[i].path} left ${gap} ms after the last (${delayMs} ms asked)`);
    }
  }
}
