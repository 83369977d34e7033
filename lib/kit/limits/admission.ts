/**
 * Scan admission: whether a new scan of a domain may start now, decided atomically with marking
 * the domain in flight and enqueuing the job. Three strategies behind one interface, chosen once
 * per store by {@link admissionFor}:
 *
 * - {@link KvAdmission} (the default): the pools' window logs live in the store's KV; one commit
 *   checks the in-flight mark and every pool's versionstamp, appends to the logs, marks the domain
 *   and enqueues the job. Concurrent callers conflict and retry, so no pool admits one too many.
 * - {@link LocalAdmission} (this process is the KV's only writer): the logs are decided in memory
 *   (lib/kit/limits/limiter_local.ts) and written through; admissions arriving together share one
 *   commit (lib/kit/limits/group_commit.ts). No read is needed.
 * - {@link SharedAdmission} (a shared limiter, e.g. Redis): the limiter counts the pools and
 *   claims the domain; KV then gets the in-flight mark and the job, and an admission that lost the
 *   domain to another process is refunded.
 *
 * The store (lib/kit/storage/store.ts) keeps its key layout: it tells a strategy where the in-flight
 * mark and the pools' logs are, and what an admission writes ({@link AdmissionStore}).
 */
import { GroupCommit } from "./group_commit.ts";
import { backoff, decide, type Limiter, type PoolSpec, type PoolUsage } from "./limiter.ts";
import { LocalPoolLogs } from "./limiter_local.ts";

/** The outcome of an admission. */
export type Admission =
  | { status: "admitted"; used: number[] }
  | { status: "inflight" }
  | { status: "limited"; pool: PoolSpec; retryAfterMs: number };

/** What a strategy reads of a job (the store's ScanJob has more): its id and its target's domain. */
export interface AdmissionJob {
  jobId: string;
  target: { domain: string };
}

/** The store's side of an admission: where things are in its KV, and what an admission writes. */
export interface AdmissionStore<J extends AdmissionJob> {
  kv: Deno.Kv;
  /** The key of a domain's in-flight mark. */
  inflightKey(domain: string): Deno.KvKey;
  /** The key of a pool's window log (when the pools live in this KV). */
  poolKey(p: PoolSpec): Deno.KvKey;
  /** The prefix of every pool's window log. */
  poolPrefix: Deno.KvKey;
  /**
   * Adds an admission's writes to `op`: each pool's new log (when `pools` are given), the
   * domain's in-flight mark (expiring after `markTtlMs`) and the job.
   */
  write(
    op: Deno.AtomicOperation,
    job: J,
    now: number,
    markTtlMs: number,
    pools?: PoolSpec[],
    logs?: number[][],
  ): void;
}

/** One way of admitting scans. */
export interface AdmissionStrategy<J extends AdmissionJob> {
  readonly kind: "kv" | "local" | "shared";
  /**
   * Admits `job` if its domain is not in flight and every pool has room: counts it in every pool,
   * marks the domain in flight (for `inflightTtlMs`) and enqueues the job, all or nothing.
   */
  admit(job: J, pools: PoolSpec[], now: number, inflightTtlMs: number): Promise<Admission>;
  /** How much of a pool is used at `now`, and when its oldest entry leaves the window. */
  usage(p: PoolSpec, now: number): Promise<PoolUsage>;
}

const MAX_ATTEMPTS = 1000;
/** How long a shared-limiter admission may hold a domain's claim before its KV commit. */
const CLAIM_TTL_MS = 5000;

/**
 * The strategy for a store: {@link SharedAdmission} when its limiter is not KV's, else
 * {@link LocalAdmission} when this process is the KV's only writer, else {@link KvAdmission}.
 */
export function admissionFor<J extends AdmissionJob>(
  store: AdmissionStore<J>,
  limiter: Limiter,
  exclusive = false,
): AdmissionStrategy<J> {
  if (limiter.kind !== "kv") return new SharedAdmission(store, limiter);
  return exclusive ? new LocalAdmission(store, limiter) : new KvAdmission(store, limiter);
}

/** Pools in the store's KV, read and written in one checked commit (retried on conflict). */
export class KvAdmission<J extends AdmissionJob> implements AdmissionStrategy<J> {
  readonly kind = "kv";
  constructor(private readonly store: AdmissionStore<J>, private readonly limiter: Limiter) {}

  async admit(job: J, pools: PoolSpec[], now: number, inflightTtlMs: number): Promise<Admission> {
    const { kv } = this.store;
    const inflightKey = this.store.inflightKey(job.target.domain);
    const poolKeys = pools.map((p) => this.store.poolKey(p));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const [inflight, ...windows] = await kv.getMany<[unknown, ...number[][]]>([
        inflightKey,
        ...poolKeys,
      ]);
      if (inflight.value) return { status: "inflight" };
      const decision = decide(pools, windows.map((w) => w.value), now);
      if (decision.status === "limited") return decision;
      const op = kv.atomic().check(inflight, ...windows);
      this.store.write(op, job, now, inflightTtlMs, pools, decision.next);
      if ((await op.commit()).ok) return { status: "admitted", used: decision.used };
      await backoff(attempt);
    }
    throw new Error("admitScan: too much contention");
  }

  async usage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return await this.limiter.usage(p, now);
  }
}

/** What one admission of the local path writes. */
interface LocalWrite<J> {
  job: J;
  pools: PoolSpec[];
  /** Each pool's window log with this admission counted. */
  logs: number[][];
  /** When it was admitted (the in-flight mark's `since`). */
  now: number;
  markTtlMs: number;
}

/**
 * Admission by the only process that writes this KV: the pools are decided in memory and
 * counted at once (exact: no two decisions interleave), then one commit writes the pools, marks
 * the domain in flight (checking that it was not) and enqueues the job. No read is needed, so
 * an admission costs one commit at most: admissions arriving together share one
 * (lib/kit/limits/group_commit.ts). A domain already in flight is joined and counts nothing: its
 * commit fails its check and the admission is taken back; a full pool is checked against the
 * in-flight mark too, so a domain being scanned is joined rather than refused.
 */
export class LocalAdmission<J extends AdmissionJob> implements AdmissionStrategy<J> {
  readonly kind = "local";
  readonly #logs: LocalPoolLogs;
  readonly #commits: GroupCommit<LocalWrite<J>>;

  constructor(private readonly store: AdmissionStore<J>, private readonly limiter: Limiter) {
    this.#logs = new LocalPoolLogs(store.kv, (p) => store.poolKey(p), store.poolPrefix);
    // One admission's commit: the domain must not be in flight; pools, mark and job together.
    this.#commits = new GroupCommit<LocalWrite<J>>(store.kv, (op, a) => {
      op.check({ key: store.inflightKey(a.job.target.domain), versionstamp: null });
      store.write(op, a.job, a.now, a.markTtlMs, a.pools, a.logs);
    }, (a) => a.job.target.domain);
  }

  async admit(job: J, pools: PoolSpec[], now: number, inflightTtlMs: number): Promise<Admission> {
    const logs = this.#logs;
    // Loaded pools can be dropped from memory while this waits, hence the loop.
    for (let loading = logs.load(pools); loading; loading = logs.load(pools)) await loading;
    const decision = logs.admit(pools, now);
    if (decision.status === "limited") {
      const inflight = await this.store.kv.get(this.store.inflightKey(job.target.domain));
      return inflight.value ? { status: "inflight" } : decision;
    }
    let committed = false;
    try {
      committed = await this.#commits.commit({
        job,
        pools,
        logs: decision.next,
        now,
        markTtlMs: inflightTtlMs,
      });
    } finally {
      if (committed) logs.settle(pools, now);
      else logs.refund(pools, now);
    }
    return committed ? { status: "admitted", used: decision.used } : { status: "inflight" };
  }

  async usage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return this.#logs.usage(p, now) ?? await this.limiter.usage(p, now);
  }
}

/**
 * Admission with a shared limiter, in three steps:
 * 1. a domain already in flight is joined (nothing is counted);
 * 2. the limiter admits the job id into every pool atomically and takes a short claim on the
 *    domain, so concurrent requests for one domain wait for the first instead of each taking a
 *    slot of the domain's pool ("busy": poll until the domain is in flight or the claim is gone);
 * 3. the in-flight mark and the job are committed in KV with a check that the domain is still
 *    not in flight; if another process got there first, the admission is refunded (removed from
 *    every pool) and the request joins that scan.
 * A crash between 2 and 3 leaves the admission counted (fail safe) and the claim expires.
 */
export class SharedAdmission<J extends AdmissionJob> implements AdmissionStrategy<J> {
  readonly kind = "shared";
  constructor(private readonly store: AdmissionStore<J>, private readonly limiter: Limiter) {}

  async admit(job: J, pools: PoolSpec[], now: number, inflightTtlMs: number): Promise<Admission> {
    const { kv } = this.store;
    const inflightKey = this.store.inflightKey(job.target.domain);
    const claim = `domain:${job.target.domain}`;
    const giveUpAt = Date.now() + CLAIM_TTL_MS * 2;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const inflight = await kv.get(inflightKey);
      if (inflight.value) return { status: "inflight" };
      const decision = await this.limiter.admit(pools, now, job.jobId, {
        claim,
        claimTtlMs: CLAIM_TTL_MS,
      });
      if (decision.status === "limited") return decision;
      if (decision.status === "busy") {
        if (Date.now() > giveUpAt) throw new Error("admitScan: a domain claim never resolved");
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
        continue;
      }
      let committed = false;
      try {
        const op = kv.atomic().check(inflight);
        this.store.write(op, job, now, inflightTtlMs);
        committed = (await op.commit()).ok;
      } catch (error) {
        await this.limiter.refund(pools, job.jobId, claim);
        throw error;
      }
      if (committed) {
        await this.limiter.release(claim, job.jobId);
        return { status: "admitted", used: decision.used };
      }
      // The domain went in flight meanwhile (another process): give the slots back, then join.
      await this.limiter.refund(pools, job.jobId, claim);
    }
    throw new Error("admitScan: too much contention");
  }

  async usage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return await this.limiter.usage(p, now);
  }
}
