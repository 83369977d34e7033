/**
 * A small in-memory TTL cache for off-site lookups.
 *
 * Wikidata, Wikipedia and the Common Crawl index are shared public services: asking them the
 * same question for every rescan is rude and slow, so answers are remembered for a while. It is
 * only a cache: losing it (restart, eviction) costs a few extra requests, never correctness, so it
 * lives in process memory rather than in KV.
 *
 * @example
 * ```ts
 * const cache = new OffSiteCache({ maxEntries: 500 });
 * cache.set("cc:collinfo", ["CC-MAIN-2025-08"], 6 * HOUR_MS);
 * cache.get<string[]>("cc:collinfo"); // ["CC-MAIN-2025-08"] for the next six hours
 * ```
 * @module
 */

import { HostEtiquette } from "./etiquette.ts";

/** One hour in milliseconds. */
export const HOUR_MS = 60 * 60 * 1000;

/** How long the list of Common Crawl crawls is kept: new crawls appear about monthly. */
export const CRAWL_LIST_TTL_MS = 6 * HOUR_MS;

/** How long a per-domain answer is kept: the same freshness as a stored scan record. */
export const DOMAIN_RESULT_TTL_MS = 24 * HOUR_MS;

/**
 * How long a failed lookup (timeout, throttling, an error answer) is remembered: long enough that
 * a burst of scans does not repeat a request that just failed, short enough that an outage heals
 * within minutes.
 */
export const FAILURE_TTL_MS = 2 * 60 * 1000;

/** Options of {@link OffSiteCache}. */
export interface OffSiteCacheOptions {
  /** Entries kept at most; the least recently written are dropped first. Default 1000. */
  maxEntries?: number;
  /** The clock, in epoch milliseconds; injected so tests can move time. Default `Date.now`. */
  now?: () => number;
  /** Per-host series, pacing and back-off; default a new one on the real clock. */
  etiquette?: HostEtiquette;
}

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * An in-memory cache with a time to live per entry and a maximum size.
 *
 * Every method takes an optional `at` time so one call of the off-site step can read and write
 * with the clock its caller injected; without it the cache's own clock is used.
 */
export class OffSiteCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Per-host series, pacing and back-off of the lookups sharing this cache. */
  readonly etiquette: HostEtiquette;

  /** Creates an empty cache. */
  constructor(options: OffSiteCacheOptions = {}) {
    this.#maxEntries = Math.max(1, Math.floor(options.maxEntries ?? 1000));
    this.#now = options.now ?? Date.now;
    // Pacing sleeps in real time, so the etiquette keeps its own clock (real unless injected).
    this.etiquette = options.etiquette ?? new HostEtiquette();
  }

  /** Number of entries held, expired ones included until they are next touched. */
  get size(): number {
    return this.#entries.size;
  }

  /** The live value under `key`, or undefined when absent or expired. */
  get<T>(key: string, at: number = this.#now()): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= at) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Stores `value` under `key` for `ttlMs` milliseconds from `at`. */
  set(key: string, value: unknown, ttlMs: number, at: number = this.#now()): void {
    if (!(ttlMs > 0)) return;
    // Re-inserting moves the key to the end of the Map's order, which is what eviction reads.
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: at + ttlMs });
    if (this.#entries.size > this.#maxEntries) this.#evict(at);
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }

  #evict(at: number): void {
    // Expired entries go first, so a burst of fresh answers does not push out live ones.
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= at) this.#entries.delete(key);
    }
    // Then the oldest writes, in insertion order.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
