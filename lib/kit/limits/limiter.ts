/**
 * Rate-limit engines behind one interface. A {@link Limiter} admits one unit into several sliding
 * windows ("pools") atomically: either every pool has room and each counts the admission, or none
 * does and the answer says which pool is full and when it has room again (exactly).
 *
 * - {@link KvLimiter}: window logs in Deno KV (the default), one atomic commit per admission.
 *   Store.admitScan does not call it for scans: it fuses the same window logs with the in-flight
 *   mark and the enqueue in ONE commit (lib/kit/storage/store.ts). It serves the sign-in attempt windows and
 *   the usage and admin views.
 * - RedisLimiter (lib/kit/limits/limiter_redis.ts): sorted sets in Redis through the Upstash REST API, one Lua
 *   script per admission, shared by every process and region that uses the same database.
 *
 * Every admission has a member id (a scan's job id, or a random id), so an admission can be
 * refunded, and a retried call that already got in is recognised instead of counted twice.
 */
import { HttpError } from "../errors.ts";

/** One rate-limit pool a new scan must fit in. */
export interface PoolSpec {
  /** Pool kind, e.g. "ip", "domain", "key". */
  pool: string;
  id: string;
  limit: number;
  windowMs: number;
}

/** The answer of {@link Limiter.admit}. */
export type LimitDecision =
  /** Counted in every pool; `used` is each pool's count including this admission. */
  | { status: "admitted"; used: number[] }
  /** Nothing counted: `pool` is the pool whose room comes back last, in `retryAfterMs`. */
  | { status: "limited"; pool: PoolSpec; retryAfterMs: number }
  /** Nothing counted: another caller holds the claim named in the options (see `claim`). */
  | { status: "busy" };

/** How full one pool is. */
export interface PoolUsage {
  used: number;
  /** When the oldest counted admission leaves the window (0 when the pool is empty). */
  resetMs: number;
}

/** One pool's window as the administrator sees it. */
export interface LimitWindow {
  pool: string;
  id: string;
  /** Admission times in the window (ms since the epoch), oldest first. */
  times: number[];
}

/** Options of {@link Limiter.admit}. */
export interface AdmitOptions {
  /**
   * A short-lived exclusive claim taken with the admission (e.g. "domain:shop.example"): while
   * another caller holds it, the answer is "busy" and nothing is counted. The claim is released
   * by {@link Limiter.release} or {@link Limiter.refund}, or expires on its own after `claimTtlMs`.
   */
  claim?: string;
  claimTtlMs?: number;
}

/** A sliding-window rate limiter over several pools. */
export interface Limiter {
  readonly kind: "kv" | "redis";
  /** Admits `member` into every pool at `now`, atomically, or into none. */
  admit(
    pools: PoolSpec[],
    now: number,
    member: string,
    options?: AdmitOptions,
  ): Promise<LimitDecision>;
  /** Takes an admission back (its member leaves every pool) and drops its claim, if any. */
  refund(pools: PoolSpec[], member: string, claim?: string): Promise<void>;
  /** Drops a claim this member holds (after the admission has been committed elsewhere). */
  release(claim: string, member: string): Promise<void>;
  /** How full a pool is at `now`. */
  usage(pool: PoolSpec, now: number): Promise<PoolUsage>;
  /** Windows of one pool kind, or of every kind (the admin page), at most `limit`. */
  windows(options?: { pool?: string; limit?: number }): Promise<LimitWindow[]>;
  /** A cheap round trip to the engine; throws when it is unreachable. */
  ping(): Promise<void>;
}

/** 503: the shared rate-limit store cannot be reached, so nothing is admitted (fail closed). */
export class LimiterUnavailableError extends HttpError {
  override name = "LimiterUnavailableError";
  constructor(message = "The rate limiter is unavailable; please retry in a few seconds.") {
    super(503, message);
  }
  override headers(): Record<string, string> {
    return { "Retry-After": "5" };
  }
}

const MAX_ATTEMPTS = 1000;

/**
 * Window logs in Deno KV: each pool is one entry holding its admission times. An admission reads
 * every pool, checks the versionstamps and writes them all back in one atomic commit, retried on
 * conflict, so concurrent callers never admit one more than a limit.
 */
export class KvLimiter implements Limiter {
  readonly kind = "kv" as const;
  /**
   * @param keyOf the KV key of a pool's log (lib/kit/storage/store.ts: [svc, "limits", pool, id])
   * @param prefixOf the KV prefix listing one pool kind's logs, or every kind's (no pool)
   */
  constructor(
    readonly kv: Deno.Kv,
    private readonly keyOf: (pool: string, id: string) => Deno.KvKey,
    private readonly prefixOf: (pool?: string) => Deno.KvKey,
  ) {}

  async admit(pools: PoolSpec[], now: number): Promise<LimitDecision> {
    const keys = pools.map((p) => this.keyOf(p.pool, p.id));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const windows = await this.kv.getMany<number[][]>(keys);
      const decision = decide(pools, windows.map((w) => w.value), now);
      if (decision.status === "limited") return decision;
      const op = this.kv.atomic().check(...windows);
      pools.forEach((p, i) => op.set(keys[i], decision.next[i], { expireIn: p.windowMs }));
      if ((await op.commit()).ok) return { status: "admitted", used: decision.used };
      await backoff(attempt);
    }
    throw new Error("KvLimiter.admit: too much contention");
  }

  /**
   * Not supported: a KV window log keeps admission times only, not who was admitted. Nothing on
   * the KV path needs it (Store.admitScan commits the pools with the in-flight mark, so there is
   * never an admission to take back).
   */
  refund(): Promise<void> {
    return Promise.reject(new Error("KvLimiter cannot refund; see Store.admitScan"));
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  async usage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return usageOf((await this.kv.get<number[]>(this.keyOf(p.pool, p.id))).value, p, now);
  }

  async windows(options: { pool?: string; limit?: number } = {}): Promise<LimitWindow[]> {
    const out: LimitWindow[] = [];
    const prefix = this.prefixOf(options.pool);
    for await (const e of this.kv.list<number[]>({ prefix }, { limit: options.limit ?? 500 })) {
      const rest = e.key.slice(prefix.length).map(String);
      const [pool, id] = options.pool
        ? [options.pool, rest.join(":")]
        : [rest[0], rest.slice(1).join(":")];
      out.push({ pool, id, times: [...e.value].sort((a, b) => a - b) });
    }
    return out;
  }

  /** One read of its own KV: the window logs are reachable (a key of its layout; none need exist). */
  async ping(): Promise<void> {
    await this.kv.get(this.prefixOf());
  }
}

/**
 * The window-log rule shared by KvLimiter and Store.admitScan: a pool is full when `limit`
 * admissions lie in (now - windowMs, now]; the retry-after of a full pool is when enough of them
 * have left for one more, and the answer names the pool whose room comes back last.
 */
export function decide(
  pools: PoolSpec[],
  logs: (number[] | null)[],
  now: number,
):
  | { status: "limited"; pool: PoolSpec; retryAfterMs: number }
  | { status: "admitted"; next: number[][]; used: number[] } {
  let worst: { pool: PoolSpec; retryAfterMs: number } | null = null;
  const next: number[][] = [];
  pools.forEach((p, i) => {
    const live = liveTimes(logs[i], now, p.windowMs);
    if (live.length >= p.limit) {
      const retryAfterMs = live[live.length - p.limit] + p.windowMs - now;
      if (!worst || retryAfterMs > worst.retryAfterMs) worst = { pool: p, retryAfterMs };
    }
    next.push([...live, now]);
  });
  if (worst) return { status: "limited", ...(worst as { pool: PoolSpec; retryAfterMs: number }) };
  return { status: "admitted", next, used: next.map((n) => n.length) };
}

/**
 * The times of a log still inside the window at `now`, oldest first. A time later than `now` is
 * kept and counted: it is an admission by a concurrent caller whose clock was read a moment after
 * this one's (dropping it let a caller that read the clock first, then retried, admit past the
 * limit).
 */
export function liveTimes(times: number[] | null, now: number, windowMs: number): number[] {
  return (times ?? []).filter((t) => t > now - windowMs).sort((a, b) => a - b);
}

/** How full a pool is at `now`, from its window log. */
export function usageOf(times: number[] | null, p: PoolSpec, now: number): PoolUsage {
  const live = liveTimes(times, now, p.windowMs);
  return { used: live.length, resetMs: live.length ? live[0] + p.windowMs - now : 0 };
}

/** Jittered and growing: under 200 concurrent writers each round lets at least one commit. */
export function backoff(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 + attempt * 2) * Math.random();
  return new Promise((r) => setTimeout(r, ms));
}
