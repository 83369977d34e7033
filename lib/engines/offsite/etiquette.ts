/**
 * How we behave towards the shared public services the off-site step asks (Wikidata, Wikipedia,
 * the Common Crawl index): requests to one host go one at a time and at most a few per second,
 * and a host that told us to slow down (429, 503, a MediaWiki `maxlag` answer, with or without
 * `Retry-After`) is not asked again until its back-off ends. While a host is backing us off, a
 * lookup fails at once as "throttled", so its check reads "unknown" without sending anything.
 *
 * Wikimedia's API etiquette asks clients to make requests "in series rather than in parallel"
 * and to honour Retry-After; Common Crawl's index answers 503 "Slow Down" under load and asks for
 * one request at a time. One {@link HostEtiquette} is kept per {@link OffSiteCache} (so a process
 * shares one) and its clock is injectable.
 * @module
 */

/** Requests in flight per host at once: in series, as Wikimedia and Common Crawl ask. */
export const MAX_IN_FLIGHT_PER_HOST = 1;

/**
 * Least time between the starts of two requests to one host (at most 20 per second per process;
 * in practice the series rule above keeps it far lower, since each request waits for the last).
 */
export const MIN_INTERVAL_MS = 50;

/** Back-off when a host throttles us without a usable Retry-After. */
export const DEFAULT_BACKOFF_MS = 60_000;

/** Longest back-off honoured: a bigger Retry-After is read as this (an hour would be a typo). */
export const MAX_BACKOFF_MS = 15 * 60_000;

/** Options of {@link HostEtiquette}. */
export interface HostEtiquetteOptions {
  now?: () => number;
  maxInFlight?: number;
  minIntervalMs?: number;
  /** How to wait (tests pass a fake). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface HostState {
  inFlight: number;
  waiting: (() => void)[];
  lastStart: number;
  backoffUntil: number;
}

/** Thrown by {@link HostEtiquette.run} when the host asked us to wait and the wait is not over. */
export class ThrottledError extends Error {
  override name = "ThrottledError";
  constructor(readonly host: string, readonly retryInMs: number) {
    super(`throttled by ${host}; not asked again for ${Math.ceil(retryInMs / 1000)} s`);
  }
}

/** Per-host queue, pacing and back-off. */
export class HostEtiquette {
  readonly #hosts = new Map<string, HostState>();
  readonly #now: () => number;
  readonly #maxInFlight: number;
  readonly #minIntervalMs: number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(options: HostEtiquetteOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxInFlight = Math.max(1, options.maxInFlight ?? MAX_IN_FLIGHT_PER_HOST);
    this.#minIntervalMs = Math.max(0, options.minIntervalMs ?? MIN_INTERVAL_MS);
    this.#sleep = options.sleep ?? abortableSleep;
  }

  /** Milliseconds until `host` may be asked again (0 when it may now). */
  backoffLeft(host: string, at: number = this.#now()): number {
    const state = this.#hosts.get(host);
    return state ? Math.max(0, state.backoffUntil - at) : 0;
  }

  /**
   * Runs `send` for `host` in turn: waits for a free slot and the pacing interval, and throws
   * {@link ThrottledError} at once while the host's back-off lasts.
   */
  async run<T>(host: string, signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    const state = this.#state(host);
    const left = this.backoffLeft(host);
    if (left > 0) throw new ThrottledError(host, left);
    while (state.inFlight >= this.#maxInFlight) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          state.waiting = state.waiting.filter((w) => w !== wake);
          reject(signal.reason);
        };
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        state.waiting.push(wake);
      });
    }
    state.inFlight++;
    try {
      const wait = state.lastStart + this.#minIntervalMs - this.#now();
      if (wait > 0) await this.#sleep(wait, signal);
      const again = this.backoffLeft(host);
      if (again > 0) throw new ThrottledError(host, again);
      state.lastStart = this.#now();
      return await send();
    } finally {
      state.inFlight--;
      state.waiting.shift()?.();
    }
  }

  /** Records that `host` asked us to slow down, for `retryAfter` (the header value) if usable. */
  throttled(host: string, retryAfter: string | undefined, at: number = this.#now()): number {
    const ms = Math.min(MAX_BACKOFF_MS, retryAfterMs(retryAfter, at) ?? DEFAULT_BACKOFF_MS);
    const state = this.#state(host);
    state.backoffUntil = Math.max(state.backoffUntil, at + ms);
    return ms;
  }

  #state(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { inFlight: 0, waiting: [], lastStart: -Infinity, backoffUntil: 0 };
      this.#hosts.set(host, state);
    }
    return state;
  }
}

/** Retry-After in milliseconds from `at`: delta-seconds or an HTTP date; null when unusable. */
export function retryAfterMs(value: string | undefined, at: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - at);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
