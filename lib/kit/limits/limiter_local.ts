/**
 * The scan pools' window logs, held in memory by the one process that writes them: a local KV file
 * is opened by one process only (lib/kit/storage/kv_open.ts), so that process's copy is the truth. Decisions
 * then need no KV read, and they are exact because they run synchronously: JavaScript decides one
 * admission at a time, and each sees every admission decided before it.
 *
 * KV stays the durable copy: Store.admitScan writes the logs an admission changed in the same
 * commit as the in-flight mark and the job, and every log in KV is loaded when the first
 * admission after a start needs them. A refund (the commit found the domain already in flight) is exact in
 * memory; the KV copy of a pool may keep the refunded time until that pool's next write, which
 * only makes a restart stricter by one for a while, never looser.
 */
import { decide, type PoolUsage, usageOf } from "./limiter.ts";
import type { PoolSpec } from "./limiter.ts";

/** A decision of {@link LocalPoolLogs.admit}; `next` are the logs to write through to KV. */
export type LocalDecision =
  | { status: "admitted"; next: number[][]; used: number[] }
  | { status: "limited"; pool: PoolSpec; retryAfterMs: number };

interface Entry {
  times: number[];
  /** The pool's window, to tell when every time in the log has left it. */
  windowMs: number;
  /**
   * Times of admissions whose commit has not settled (each also in `times`): the entry must not be
   * evicted meanwhile, and {@link LocalPoolLogs.usage} leaves them out (a commit that finds the
   * domain in flight takes its admission back, and no caller's header may show it).
   */
  pending: number[];
}

/** Pools kept in memory; past this, pools with nothing in their window are dropped first. */
const MAX_POOLS = 100_000;
/** Admissions between two sweeps of the pools whose windows have emptied. */
const SWEEP_EVERY = 10_000;

/**
 * In-memory window logs of the scan pools, keyed like their KV entries. On first use every log in
 * KV is loaded (they expire within their window, so there are only as many as the last hour's
 * callers); from then on a pool not in memory is an empty pool, and an admission reads nothing.
 * Only if memory overflows and a live pool has to be dropped does a missing pool mean "read it".
 */
export class LocalPoolLogs {
  #logs = new Map<string, Entry>();
  #loading = new Map<string, Promise<void>>();
  /** Set once every log in KV has been loaded; cleared if a live pool is ever evicted. */
  #complete = false;
  #loadingAll: Promise<void> | undefined;
  #sinceSweep = 0;

  constructor(
    private readonly kv: Deno.Kv,
    private readonly keyOf: (p: PoolSpec) => Deno.KvKey,
    /** The prefix under which every pool's log lives ([svc, "limits"]). */
    private readonly prefix: Deno.KvKey,
  ) {}

  /**
   * Makes sure every pool's log is in memory: undefined when they already are (the admission can
   * be decided now), else a promise to wait for before asking again.
   */
  load(pools: PoolSpec[]): Promise<void> | undefined {
    if (!this.#complete && !this.#loadingAll) this.#loadingAll = this.#loadAll();
    if (this.#loadingAll) return this.#loadingAll;
    let waits: Promise<void>[] | undefined;
    for (const p of pools) {
      const name = nameOf(p);
      if (this.#logs.has(name)) continue;
      if (this.#complete) {
        this.#logs.set(name, { times: [], windowMs: p.windowMs, pending: [] });
        continue;
      }
      let loading = this.#loading.get(name);
      if (!loading) {
        loading = this.kv.get<number[]>(this.keyOf(p)).then((e) => {
          if (!this.#logs.has(name)) {
            this.#logs.set(name, { times: e.value ?? [], windowMs: p.windowMs, pending: [] });
          }
        }).finally(() => this.#loading.delete(name));
        this.#loading.set(name, loading);
      }
      (waits ??= []).push(loading);
    }
    return waits && Promise.all(waits).then(() => {});
  }

  async #loadAll(): Promise<void> {
    try {
      const now = Date.now();
      for await (const e of this.kv.list<number[]>({ prefix: this.prefix })) {
        const [pool, id] = e.key.slice(this.prefix.length).map(String);
        const name = `${pool}\u0000${id}`;
        if (this.#logs.has(name) || !Array.isArray(e.value)) continue;
        // The window is not stored with a log; an hour (every scan pool's) until it is next used.
        this.#logs.set(name, { times: e.value, windowMs: HOUR, pending: [] });
        if (this.#logs.size > MAX_POOLS) this.#evict(now);
      }
      this.#complete = this.#logs.size <= MAX_POOLS;
    } finally {
      this.#loadingAll = undefined;
    }
  }

  /**
   * Decides at `now` and, when every pool has room, counts the admission in each, at once.
   * Every pool must have been loaded (see {@link load}); call {@link settle} when its commit is
   * done and {@link refund} if it did not commit.
   */
  admit(pools: PoolSpec[], now: number): LocalDecision {
    const entries = pools.map((p) => this.#entry(p));
    const decision = decide(pools, entries.map((e) => e.times), now);
    if (decision.status === "limited") return decision;
    entries.forEach((e, i) => {
      e.times = decision.next[i];
      e.pending.push(now);
    });
    return decision;
  }

  /** The admission counted at `now` was committed. */
  settle(pools: PoolSpec[], now: number): void {
    for (const p of pools) {
      const e = this.#logs.get(nameOf(p));
      if (e) e.pending = without(e.pending, now);
    }
    if (++this.#sinceSweep >= SWEEP_EVERY || this.#logs.size > MAX_POOLS) {
      this.#sinceSweep = 0;
      this.#evict(Date.now());
    }
  }

  /** Takes back an admission counted at `now` that was not committed. */
  refund(pools: PoolSpec[], now: number): void {
    for (const p of pools) {
      const e = this.#logs.get(nameOf(p));
      if (!e) continue;
      e.times = without(e.times, now);
      e.pending = without(e.pending, now);
    }
  }

  /**
   * How full a pool is, counting committed admissions only, or undefined when it is not known
   * without a read.
   */
  usage(p: PoolSpec, now: number): PoolUsage | undefined {
    const e = this.#logs.get(nameOf(p));
    if (!e && !this.#complete) return undefined;
    let times = e?.times ?? null;
    for (const t of e?.pending ?? []) times = without(times!, t);
    return usageOf(times, p, now);
  }

  /** Pools in memory (for tests). */
  get size(): number {
    return this.#logs.size;
  }

  #entry(p: PoolSpec): Entry {
    const e = this.#logs.get(nameOf(p));
    if (!e) throw new Error(`LocalPoolLogs: pool ${nameOf(p)} was not loaded`);
    e.windowMs = p.windowMs;
    return e;
  }

  /**
   * Drops pools whose window has emptied; if memory is still over its bound, drops the oldest
   * idle pools too, after which a pool not in memory has to be read.
   */
  #evict(now: number): void {
    for (const [name, e] of this.#logs) {
      if (!e.pending.length && e.times.every((t) => t <= now - e.windowMs)) this.#logs.delete(name);
    }
    if (this.#logs.size <= MAX_POOLS) return;
    for (const [name, e] of this.#logs) {
      if (this.#logs.size <= MAX_POOLS * 0.9) break;
      if (!e.pending.length) {
        this.#logs.delete(name);
        this.#complete = false;
      }
    }
  }
}

const HOUR = 3600_000;

/** `list` without its last occurrence of `t` (the list itself when there is none). */
function without(list: number[], t: number): number[] {
  const i = list.lastIndexOf(t);
  return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
}

function nameOf(p: PoolSpec): string {
  return `${p.pool}\u0000${p.id}`;
}
