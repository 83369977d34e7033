/**
 * The scan pools' window logs, held in memory by the one process that writes them: a local KV file
 * is opened by one process only (lib/kv_open.ts), so that process's copy is the truth. Decisions
 * then need no KV read, and they are exact because they run synchronously: JavaScript decides one
 * admission at a time, and each sees every admission decided before it.
 *
 * KV stays the durable copy: Store.admitScan writes the logs an admission changed in the same
 * commit as the in-flight mark and the job, and a pool this process has not seen since it started
 * is loaded from KV first. A refund (the commit found the domain already in flight) is exact in
 * memory; the KV copy of a pool may keep the refunded time until that pool's next write, which
 * only makes a restart stricter by one for a while, never looser.
 */
import { decide, liveTimes, type PoolUsage } from "./limiter.ts";
import type { PoolSpec } from "./store.ts";

/** A decision of {@link LocalPoolLogs.admit}; `next` are the logs to write through to KV. */
export type LocalDecision =
  | { status: "admitted"; next: number[][]; used: number[] }
  | { status: "limited"; pool: PoolSpec; retryAfterMs: number };

interface Entry {
  times: number[];
  /** Admissions whose commit has not settled: the entry must not be evicted meanwhile. */
  pending: number;
}

/** Pools kept before quiet ones are dropped (they are reloaded from KV if seen again). */
const MAX_POOLS = 50_000;

/** In-memory window logs of the scan pools, keyed like their KV entries. */
export class LocalPoolLogs {
  #logs = new Map<string, Entry>();
  #loading = new Map<string, Promise<void>>();

  constructor(
    private readonly kv: Deno.Kv,
    private readonly keyOf: (p: PoolSpec) => Deno.KvKey,
  ) {}

  /** Makes sure every pool's log is in memory (a read only for pools not seen since start). */
  load(pools: PoolSpec[]): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const p of pools) {
      const name = nameOf(p);
      if (this.#logs.has(name)) continue;
      let loading = this.#loading.get(name);
      if (!loading) {
        loading = this.kv.get<number[]>(this.keyOf(p)).then((e) => {
          if (!this.#logs.has(name)) this.#logs.set(name, { times: e.value ?? [], pending: 0 });
        }).finally(() => this.#loading.delete(name));
        this.#loading.set(name, loading);
      }
      (waits ??= []).push(loading);
    }
    return waits && Promise.all(waits).then(() => {});
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
      e.pending++;
    });
    return decision;
  }

  /** The admission at `now` was committed. */
  settle(pools: PoolSpec[]): void {
    for (const p of pools) {
      const e = this.#logs.get(nameOf(p));
      if (e) e.pending = Math.max(0, e.pending - 1);
    }
    if (this.#logs.size > MAX_POOLS) this.#evict();
  }

  /** Takes back an admission counted at `now` that was not committed. */
  refund(pools: PoolSpec[], now: number): void {
    for (const p of pools) {
      const e = this.#logs.get(nameOf(p));
      if (!e) continue;
      const i = e.times.lastIndexOf(now);
      if (i >= 0) e.times = [...e.times.slice(0, i), ...e.times.slice(i + 1)];
      e.pending = Math.max(0, e.pending - 1);
    }
  }

  /** How full a pool is, or undefined when it is not in memory. */
  usage(p: PoolSpec, now: number): PoolUsage | undefined {
    const e = this.#logs.get(nameOf(p));
    if (!e) return undefined;
    const live = liveTimes(e.times, now, p.windowMs);
    return { used: live.length, resetMs: live.length ? live[0] + p.windowMs - now : 0 };
  }

  /** Pools in memory (for tests). */
  get size(): number {
    return this.#logs.size;
  }

  #entry(p: PoolSpec): Entry {
    const e = this.#logs.get(nameOf(p));
    if (!e) throw new Error(`LocalPoolLogs: pool ${nameOf(p)} was not loaded`);
    return e;
  }

  /** Drops the oldest pools with no commit in flight until a tenth of the room is free. */
  #evict(): void {
    for (const [name, e] of this.#logs) {
      if (this.#logs.size <= MAX_POOLS * 0.9) break;
      if (e.pending === 0) this.#logs.delete(name);
    }
  }
}

function nameOf(p: PoolSpec): string {
  return `${p.pool}\u0000${p.id}`;
}
