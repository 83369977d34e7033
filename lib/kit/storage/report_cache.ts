/**
 * A small in-process cache of stored scans and their serialised JSON: reports are polled every
 * 1-2 s by many clients and cache-hit scans return the same record, and reading an 11 KB record
 * from KV and serialising it again costs ~90 µs a time. Entries live for `ttlMs` (1 s by default),
 * so another process's new record shows up within a second; a scan finished in this process drops
 * its entry at once. It is only a cache: a miss reads KV.
 */
import type { Store, StoredScan } from "./store.ts";

/** A cached record, its JSON and ETag, and (once the app has answered for it) its full headers. */
export interface CachedReport {
  stored: StoredScan;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  /** The exact headers of the app's GET response, for the pre-routing fast path. */
  headers: [string, string][] | null;
  expires: number;
}

const encoder = new TextEncoder();

/** Cache of stored scans by domain. */
export class ReportCache {
  #entries = new Map<string, CachedReport>();
  /** Reads from KV in progress, by domain: concurrent misses of one domain share one. */
  #loads = new Map<string, Promise<CachedReport | null>>();
  /** Bumped by every delete: a read that a delete overtook is not kept. */
  #deletes = 0;
  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh entry, or undefined. */
  get(domain: string): CachedReport | undefined {
    const e = this.#entries.get(domain);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.#entries.delete(domain);
      return undefined;
    }
    return e;
  }

  /** Caches a stored scan read from KV (with its record's JSON when the store had it). */
  set(domain: string, stored: StoredScan, recordJson?: Uint8Array | null): CachedReport {
    if (this.#entries.size >= this.maxEntries) {
      // Drop the oldest insertion: Maps iterate in insertion order.
      const first = this.#entries.keys().next().value;
      if (first !== undefined) this.#entries.delete(first);
    }
    const entry = entryOf(domain, stored, this.now() + this.ttlMs, recordJson);
    this.#entries.set(domain, entry);
    return entry;
  }

  /** Remembers the headers the app answered with, so later reads can skip routing. */
  setHeaders(domain: string, etag: string, headers: [string, string][]): void {
    const e = this.#entries.get(domain);
    if (e && e.etag === etag) e.headers = headers;
  }

  /** Forgets a domain (its record just changed). */
  delete(domain: string): void {
    this.#entries.delete(domain);
    this.#loads.delete(domain);
    this.#deletes++;
  }

  /**
   * The entry of a domain, read with `read` on a miss. When an entry expires under load, the
   * requests that miss together share one read and one serialisation instead of each doing both.
   */
  load(
    domain: string,
    read: () => Promise<StoredScan | StoredWithJson | null>,
  ): Promise<CachedReport | null> {
    const hit = this.get(domain);
    if (hit) return Promise.resolve(hit);
    let loading = this.#loads.get(domain);
    if (!loading) {
      const deletes = this.#deletes;
      loading = read().then((read) => {
        if (!read) return null;
        const { stored, recordJson } = "stored" in read ? read : { stored: read, recordJson: null };
        // A record stored meanwhile in this process must not be hidden behind the older one.
        return deletes === this.#deletes
          ? this.set(domain, stored, recordJson)
          : entryOf(domain, stored, 0, recordJson);
      }).finally(() => {
        if (this.#loads.get(domain) === loading) this.#loads.delete(domain);
      });
      this.#loads.set(domain, loading);
    }
    return loading;
  }
}

/** A stored scan and, for a record stored in parts, its record's JSON as stored. */
export interface StoredWithJson {
  stored: StoredScan;
  recordJson: Uint8Array | null;
}

/**
 * A stored scan with its JSON and ETag (`expires` 0: not kept). A large record's JSON comes from
 * the store as it was stored (Store.getScanWithJson), so it is not serialised again.
 */
function entryOf(
  domain: string,
  stored: StoredScan,
  expires: number,
  recordJson?: Uint8Array | null,
): CachedReport {
  return {
    stored,
    body: (recordJson ?? encoder.encode(JSON.stringify(stored.record))) as Uint8Array<ArrayBuffer>,
    etag: reportEtag(domain, stored.record.scannedAt),
    headers: null,
    expires,
  };
}

/** The stored scan of a domain through an optional cache. */
export async function readReport(
  store: Store,
  domain: string,
  cache?: ReportCache,
): Promise<CachedReport | null> {
  // (A store without getScanWithJson, e.g. a test's stand-in, is read with getScan.)
  const read = (): Promise<StoredScan | StoredWithJson | null> =>
    typeof store.getScanWithJson === "function"
      ? store.getScanWithJson(domain)
      : store.getScan(domain);
  if (cache) return await cache.load(domain, read);
  const r = await read();
  if (!r) return null;
  return "stored" in r ? entryOf(domain, r.stored, 0, r.recordJson) : entryOf(domain, r, 0);
}

/** The ETag of a domain's record: changes whenever a new record is stored. */
export function reportEtag(domain: string, scannedAt: string): string {
  return `"${domain}-${Date.parse(scannedAt).toString(36)}"`;
}

/** Whether an If-None-Match header matches an ETag. */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  return !!ifNoneMatch &&
    ifNoneMatch.split(",").some((t) => t.trim() === "*" || t.trim().replace(/^W\//, "") === etag);
}
