/**
 * Failed sign-ins, limited per account as well as per address, without a lockout (issue 26):
 * a stranger's failures must never keep the account's owner out. Failures are counted in sliding
 * windows ({@link LOGIN_FAILURES}) for the e-mail address tried (by its SHA-256: unknown
 * addresses count the same, so nothing tells whether an account exists), for the caller's address
 * (an IPv4 address or an IPv6 /64) and for its IPv6 /48. Past any of them, a sign-in needs a
 * harder browser check instead of being refused: a proof of work {@link ALTCHA_HARD_FACTOR} times
 * the usual (a few seconds in a browser), so guessing costs a guesser that much more per try while
 * the owner waits a few seconds once.
 *
 * Only failures with a solved challenge count (an unsolved post is refused before anything is
 * counted), so making an account harder to sign in to costs a stranger a solved check per try.
 * With Turnstile (no proof of work to raise), Cloudflare's own challenge is the gate: the
 * failure counts are kept, the check is not raised (docs/security.md says so).
 */
import { HttpError } from "../errors.ts";
import type { Limiter, PoolSpec } from "../limits/limiter.ts";
import { ipv6Prefix48 } from "../net/client_ip.ts";

/** Failures in 15 minutes past which a sign-in needs the harder check. */
export const LOGIN_FAILURES = {
  perAccount: 5,
  perAddress: 10,
  per48: 30,
  windowMs: 15 * 60_000,
} as const;

/** How much harder the check past the limits is than the usual one. */
export const ALTCHA_HARD_FACTOR = 10;

/** Where the failure windows live (the account store's attempt limiter). */
export interface LoginGuardDeps {
  accounts: { attempts: Limiter };
  now: () => number;
}

async function accountId(email: string): Promise<string> {
  const bytes = new TextEncoder().encode(email.trim().toLowerCase());
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The failure windows of one sign-in, each with the count past which the check is raised. */
async function poolsOf(email: string, ip: string): Promise<PoolSpec[]> {
  const windowMs = LOGIN_FAILURES.windowMs;
  const pools: PoolSpec[] = [
    {
      pool: "login_fail_account",
      id: await accountId(email),
      limit: LOGIN_FAILURES.perAccount,
      windowMs,
    },
    { pool: "login_fail_address", id: ip, limit: LOGIN_FAILURES.perAddress, windowMs },
  ];
  const prefix = ipv6Prefix48(ip);
  if (prefix) {
    pools.push({ pool: "login_fail_48", id: prefix, limit: LOGIN_FAILURES.per48, windowMs });
  }
  return pools;
}

/** Whether a sign-in to `email` from `ip` needs the harder check now. */
export async function needsHarderCheck(
  deps: LoginGuardDeps,
  email: string,
  ip: string,
): Promise<boolean> {
  const now = deps.now();
  const pools = await poolsOf(email, ip);
  const usage = await Promise.all(pools.map((p) => deps.accounts.attempts.usage(p, now)));
  return usage.some((u, i) => u.used >= pools[i].limit);
}

/** Counts one failed sign-in (a wrong password or an unknown e-mail, after a solved check). */
export async function noteLoginFailure(
  deps: LoginGuardDeps,
  email: string,
  ip: string,
): Promise<void> {
  const now = deps.now();
  // Counted up to twice the limit, each window on its own: past that the answer is the same, and
  // a window log stays small however long a guesser goes on.
  for (const p of await poolsOf(email, ip)) {
    await deps.accounts.attempts.admit([{ ...p, limit: 2 * p.limit }], now, crypto.randomUUID());
  }
}

/**
 * 403: this sign-in needs the harder check (the form is shown again with it: the browser solves
 * it by itself in a few seconds, then the form can be sent).
 */
export class HarderCheckNeededError extends HttpError {
  override name = "HarderCheckNeededError";
  constructor() {
    super(
      403,
      "Several sign-ins to this account or from this network failed recently, so your browser " +
        "now does a longer check (a few seconds). Wait until it says it is done, then send the " +
        "form again.",
    );
  }
}
