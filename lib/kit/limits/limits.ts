/**
 * The spec's limits, as pools that every new scan must fit in (sliding one-hour windows, enforced
 * atomically by Store.admitScan):
 * - per client IP: 8 per hour, shared by anonymous/challenge, PIPELINE_TOKEN and MCP callers;
 * - per target domain: 3 per hour, for every new scan;
 * - per client key: 60 per hour, in the key's own pool, independent of the caller's IP.
 * Cache hits consume nothing.
 *
 * Those pools stand. So that they cannot be multiplied, {@link CAPS} bound what one account and
 * one IPv6 prefix can do (issue 22; reasons in docs/configuration.md, "Caps"):
 * - per account: 120 new scans per hour across all of its keys, counted by account, so revoking a
 *   key and creating another never resets it (two keys at full rate, e.g. staging and production);
 * - per IPv6 /48: 32 new scans per hour for callers counted by address (four /64s' worth), beside
 *   the /64's own 8, so rotating /64s inside one site's /48 stops at 32.
 */
import { ipv6Prefix48 } from "../net/client_ip.ts";
import type { PoolSpec } from "./limiter.ts";

/** The window of every limit. */
export const WINDOW_MS = 3600_000;

/** Limits per pool kind. */
export const LIMITS = { ip: 8, domain: 3, key: 60 } as const;

/** The caps that keep the per-key and per-address pools from multiplying (see the module doc). */
export const CAPS = {
  /** New scans per hour per account, across all its keys (revoked ones included). */
  accountScans: 120,
  /** New scans per hour per IPv6 /48, for callers counted by address. */
  prefix48Scans: 32,
  /** Accounts created per day per address (an IPv4 address or an IPv6 /64). */
  signupsPerAddress: 3,
  /** Accounts created per day per IPv6 /48. */
  signupsPer48: 6,
  /** Sign-up and sign-in attempts per 15 minutes per IPv6 /48 (the /64 has 10). */
  authAttemptsPer48: 30,
  /** /mcp requests in progress at once per IPv6 /48 (the /64 has 4). */
  mcpConcurrentPer48: 8,
  /** Watches created or removed per hour per account (lib/features/watch/watches.ts). */
  watchChangesPerAccount: 20,
  /** Watches created or removed per hour per address, whatever the account. */
  watchChangesPerAddress: 30,
  /** "Run now" of one watch by its owner: at most once per this many minutes. */
  watchRunNowMinutes: 10,
} as const;

/** Sign-up and administrator login attempts per IP, in one shared sliding window. */
export const AUTH_ATTEMPTS = { limit: 10, windowMs: 15 * 60_000 } as const;

/** The window of the sign-up caps. */
export const SIGNUP_WINDOW_MS = 24 * WINDOW_MS;

/**
 * Who starts a scan, as far as its pools go: a client key (its id, and its account's when it has
 * one) or an address. lib/kit/auth/auth.ts Caller has this shape; the limits need no more of it.
 */
export type PoolCaller =
  | { kind: "key"; ip: string; key: { id: string; accountId?: string | null } }
  | { kind: "pipeline" | "challenge" | "mcp"; ip: string };

/**
 * The pools a new scan by this caller of this domain must fit in: the caller's own pool first,
 * then the domain's, then the caps that bound the first (account or /48), all admitted at once.
 */
export function poolsFor(caller: PoolCaller, domain: string): PoolSpec[] {
  const own: PoolSpec = caller.kind === "key"
    ? { pool: "key", id: caller.key.id, limit: LIMITS.key, windowMs: WINDOW_MS }
    : { pool: "ip", id: caller.ip, limit: LIMITS.ip, windowMs: WINDOW_MS };
  const pools = [own, { pool: "domain", id: domain, limit: LIMITS.domain, windowMs: WINDOW_MS }];
  if (caller.kind === "key") {
    if (caller.key.accountId) {
      pools.push({
        pool: "account",
        id: caller.key.accountId,
        limit: CAPS.accountScans,
        windowMs: WINDOW_MS,
      });
    }
  } else {
    const prefix = ipv6Prefix48(caller.ip);
    if (prefix) {
      pools.push({ pool: "ip48", id: prefix, limit: CAPS.prefix48Scans, windowMs: WINDOW_MS });
    }
  }
  return pools;
}

/** The 429 message for a full pool. */
export function limitMessage(pool: PoolSpec, retryAfterSeconds: number): string {
  const what = pool.pool === "ip"
    ? "from this IP address"
    : pool.pool === "key"
    ? "for this API key"
    : pool.pool === "account"
    ? "for this account, across all of its keys"
    : pool.pool === "ip48"
    ? "from this IPv6 network (/48)"
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

/** Validations per hour per IPv6 /48, beside each address's (/64's) own (two /64s' worth). */
export const VALIDATE_LIMIT_PER_48 = 2 * VALIDATE_LIMIT;

/**
 * The pools one validate-code request from `ip` must fit in: the address's (an IPv4 address or
 * an IPv6 /64) first, then its IPv6 /48's, so rotating /64s inside one network stops at
 * {@link VALIDATE_LIMIT_PER_48}.
 */
export function validatePools(ip: string): PoolSpec[] {
  const pools = [{ pool: "validate", id: ip, limit: VALIDATE_LIMIT, windowMs: WINDOW_MS }];
  const prefix = ipv6Prefix48(ip);
  if (prefix) {
    pools.push({
      pool: "validate48",
      id: prefix,
      limit: VALIDATE_LIMIT_PER_48,
      windowMs: WINDOW_MS,
    });
  }
  return pools;
}
