/**
 * Rate limits in Redis through the Upstash REST API (`npm:@upstash/redis`), shared by every
 * process and region that uses the same database. Configured by UPSTASH_REDIS_REST_URL and
 * UPSTASH_REDIS_REST_TOKEN (lib/kit/config.ts); without them Deno KV keeps the limits.
 *
 * Layout (every key starts with the service name, like the KV keys):
 *
 *   <svc>:limits:<pool>:<id>   sorted set: member = admission id, score = admission time (ms)
 *   <svc>:claim:<name>         string: the admission id holding a short exclusive claim
 *
 * An admission is ONE Lua script (atomic on the Redis side): it trims every pool to its window,
 * checks that each has room, and only then adds the admission id to all of them; otherwise it
 * answers with the pool whose room comes back last and exactly when. A refund removes the id from
 * every pool. Keys expire one window after their newest admission, so Redis cleans up on its own.
 */
import { Redis } from "@upstash/redis";
import type { PoolSpec } from "./limiter.ts";
import {
  type AdmitOptions,
  type LimitDecision,
  type Limiter,
  LimiterUnavailableError,
  type LimitWindow,
  type PoolUsage,
} from "./limiter.ts";

/**
 * KEYS[1..n]: the pools' sorted sets; KEYS[n+1] (optional): the claim.
 * ARGV: now, member, n, claimTtlMs, then limit and windowMs of each pool.
 * Returns {1, used_1..used_n} (admitted), {0, i, retryAfterMs} (pool i is the fullest), {2} (busy).
 */
export const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local member = ARGV[2]
local n = tonumber(ARGV[3])
local claim = KEYS[n + 1]
if redis.call('ZSCORE', KEYS[1], member) then
  local used = {1}
  for i = 1, n do used[i + 1] = redis.call('ZCARD', KEYS[i]) end
  return used
end
if claim and redis.call('EXISTS', claim) == 1 then return {2} end
local worst, fullest = -1, 0
local used = {1}
for i = 1, n do
  local limit = tonumber(ARGV[3 + 2 * i])
  local window = tonumber(ARGV[4 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local nth = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local retry = tonumber(nth[2]) + window - now
    if retry > worst then worst, fullest = retry, i end
  end
  used[i + 1] = count + 1
end
if fullest > 0 then return {0, fullest, worst} end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[4 + 2 * i]))
end
if claim then redis.call('SET', claim, member, 'PX', tonumber(ARGV[4])) end
return used
`;

/** KEYS[1..n]: pools, KEYS[n+1] (optional): claim. ARGV: member, n. Removes the member, drops its claim. */
export const REFUND_SCRIPT = `
local member = ARGV[1]
local n = tonumber(ARGV[2])
for i = 1, n do redis.call('ZREM', KEYS[i], member) end
local claim = KEYS[n + 1]
if claim and redis.call('GET', claim) == member then redis.call('DEL', claim) end
return 1
`;

/** KEYS[1]: a pool. ARGV: now, windowMs. Returns {count, oldest score or 0}. */
export const USAGE_SCRIPT = `
local from = '(' .. (tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCOUNT', KEYS[1], from, '+inf')
local first = redis.call('ZRANGE', KEYS[1], from, '+inf', 'BYSCORE', 'LIMIT', 0, 1, 'WITHSCORES')
return {count, first[2] or '0'}
`;

/** How to reach the Upstash REST endpoint. */
export interface RedisLimiterOptions {
  url: string;
  token: string;
  /** The service name: the first part of every key. */
  service: string;
  /** Time-out of one REST call (default 3 s); past it the call fails and nothing is admitted. */
  timeoutMs?: number;
  /** Told about every failed call (the message without the command, which names keys). */
  onError?: (message: string) => void;
}

/** Sliding-window limits in Redis (Upstash REST), atomic across pools by one Lua script. */
export class RedisLimiter implements Limiter {
  readonly kind = "redis" as const;
  readonly redis: Redis;
  readonly #admit;
  readonly #refund;
  readonly #usage;
  readonly #prefix: string;
  readonly #onError?: (message: string) => void;

  constructor(options: RedisLimiterOptions) {
    this.#onError = options.onError;
    const timeoutMs = options.timeoutMs ?? 3000;
    this.redis = new Redis({
      url: options.url,
      token: options.token,
      // Raw strings back (member ids and scores are parsed here), no telemetry headers.
      automaticDeserialization: false,
      enableTelemetry: false,
      // A network error is retried twice; each call carries its own time-out.
      retry: { retries: 2, backoff: (n) => 25 * 2 ** n },
      signal: () => AbortSignal.timeout(timeoutMs),
    });
    this.#admit = this.redis.createScript<(number | string)[]>(ADMIT_SCRIPT);
    this.#refund = this.redis.createScript<number>(REFUND_SCRIPT);
    this.#usage = this.redis.createScript<(number | string)[]>(USAGE_SCRIPT);
    this.#prefix = `${options.service}:`;
  }

  #pool(p: { pool: string; id: string }): string {
    return `${this.#prefix}limits:${p.pool}:${p.id}`;
  }

  #claim(name: string): string {
    return `${this.#prefix}claim:${name}`;
  }

  async admit(
    pools: PoolSpec[],
    now: number,
    member: string,
    options: AdmitOptions = {},
  ): Promise<LimitDecision> {
    const keys = pools.map((p) => this.#pool(p));
    if (options.claim) keys.push(this.#claim(options.claim));
    const args = [String(now), member, String(pools.length), String(options.claimTtlMs ?? 5000)];
    for (const p of pools) args.push(String(p.limit), String(p.windowMs));
    const reply = await this.#guard(() => this.#admit.exec(keys, args));
    const [status, ...rest] = reply.map(Number);
    if (status === 1) return { status: "admitted", used: rest };
    if (status === 2) return { status: "busy" };
    return { status: "limited", pool: pools[rest[0] - 1], retryAfterMs: rest[1] };
  }

  async refund(pools: PoolSpec[], member: string, claim?: string): Promise<void> {
    const keys = pools.map((p) => this.#pool(p));
    if (claim) keys.push(this.#claim(claim));
    await this.#guard(() => this.#refund.exec(keys, [member, String(pools.length)]));
  }

  async release(claim: string, member: string): Promise<void> {
    await this.#guard(() => this.#refund.exec([this.#claim(claim)], [member, "0"]));
  }

  async usage(p: PoolSpec, now: number): Promise<PoolUsage> {
    const [count, first] =
      (await this.#guard(() =>
        this.#usage.exec([this.#pool(p)], [String(now), String(p.windowMs)])
      )).map(Number);
    return { used: count, resetMs: count ? first + p.windowMs - now : 0 };
  }

  async windows(options: { pool?: string; limit?: number } = {}): Promise<LimitWindow[]> {
    const limit = options.limit ?? 500;
    const base = `${this.#prefix}limits:`;
    const match = `${base}${options.pool ? `${escapeGlob(options.pool)}:` : ""}*`;
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await this.#guard(() => this.redis.scan(cursor, { match, count: 200 }));
      cursor = String(next);
      keys.push(...found);
    } while (cursor !== "0" && keys.length < limit);
    const out = await Promise.all(
      keys.slice(0, limit).map(async (key) => {
        const flat = await this.#guard(() =>
          this.redis.zrange<string[]>(key, 0, -1, { withScores: true })
        );
        const times: number[] = [];
        for (let i = 1; i < flat.length; i += 2) times.push(Number(flat[i]));
        const rest = key.slice(base.length);
        const colon = rest.indexOf(":");
        return { pool: rest.slice(0, colon), id: rest.slice(colon + 1), times };
      }),
    );
    return out.filter((w) => w.times.length);
  }

  /** Runs a call; any failure becomes a 503 for the client and a message for the operator. */
  async #guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      // Upstash's messages quote the command (keys, ids; never the token): keep only the reason.
      const message = (error instanceof Error ? error.message : String(error))
        .split(", command was:")[0].slice(0, 300);
      this.#onError?.(message);
      throw Object.assign(new LimiterUnavailableError(), { cause: error });
    }
  }

  async ping(): Promise<void> {
    await this.#guard(() => this.redis.ping());
  }
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, "\\$&");
}
