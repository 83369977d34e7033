/**
 * The spec's limits, as pools that every new scan must fit in (sliding one-hour windows, enforced
 * atomically by Store.admitScan):
 * - per client IP: 8 per hour, shared by anonymous/challenge, PIPELINE_TOKEN and MCP callers;
 * - per target domain: 3 per hour, for every new scan;
 * - per client key: 60 per hour, in the key's own pool, independent of the caller's IP.
 * Cache hits consume nothing.
 */
import type { Caller } from "./auth.ts";
import type { PoolSpec } from "./store.ts";

/** The window of every limit. */
export const WINDOW_MS = 3600_000;

/** Limits per pool kind. */
export const LIMITS = { ip: 8, domain: 3, key: 60 } as const;

/** The pools a new scan by this caller of this domain must fit in; the caller's own pool first. */
export function poolsFor(caller: Caller, domain: string): PoolSpec[] {
  const own: PoolSpec = caller.kind === "key"
    ? { pool: "key", id: caller.key.id, limit: LIMITS.key, windowMs: WINDOW_MS }
    : { pool: "ip", id: caller.ip, limit: LIMITS.ip, windowMs: WINDOW_MS };
  return [own, { pool: "domain", id: domain, limit: LIMITS.domain, windowMs: WINDOW_MS }];
}

/** The 429 message for a full pool. */
export function limitMessage(pool: PoolSpec, retryAfterSeconds: number): string {
  const what = pool.pool === "ip"
    ? "from this IP address"
    : pool.pool === "key"
    ? "for this API key"
    : "of this domain";
  return `Rate limit exceeded: at most ${pool.limit} new scans per hour ${what}. Retry in ${retryAfterSeconds} seconds.`;
}

/**
 * RateLimit headers (IETF httpapi-ratelimit-headers draft, the widely deployed form) describing
 * the caller's own pool.
 */
export function rateLimitHeaders(
  pool: PoolSpec,
  used: number,
  resetMs: number,
): Record<string, string> {
  return {
    "RateLimit-Policy": `${pool.limit};w=${Math.round(pool.windowMs / 1000)}`,
    "RateLimit-Limit": String(pool.limit),
    "RateLimit-Remaining": String(Math.max(0, pool.limit - used)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(resetMs / 1000))),
  };
}

/**
 * Validate code (the schema service's POST /api/validate and MCP validate_code): fetches nothing,
 * so it has a per-IP pool of its own ("validate"), apart from the scan pools, which it can never
 * use up.
 */
export const VALIDATE_LIMIT = 60;

/** The pool one validate-code request from `ip` must fit in. */
export function validatePool(ip: string): PoolSpec {
  return { pool: "validate", id: ip, limit: VALIDATE_LIMIT, windowMs: WINDOW_MS };
}
