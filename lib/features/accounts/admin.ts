/**
 * The site owner's administrator login and overview. The password comes from the configuration:
 * ADMIN_PASSWORD_HASH (an argon2id PHC string, made by `deno task admin:hash`), or, for local
 * use, ADMIN_PASSWORD in clear (hashed once per process, so both are verified the same way and
 * take the same time). The login is behind the same challenge as client sign-in, and its failures
 * are limited the same way (lib/kit/auth/login_guard.ts: per the administrator, per address and per
 * IPv6 /48, answered with a harder check, never a lockout), so a stranger's wrong guesses never keep
 * the site owner out. With a challenge that cannot be made harder (Turnstile), the per-address
 * attempt window shared with sign-up stays its limit (429).
 */
import {
  type AccountDeps,
  admitAuthAttempt,
  assertChallenge,
  assertSignInCheck,
  LoginFailedError,
} from "./accounts.ts";
import { needsHarderCheck, noteLoginFailure } from "../../kit/auth/login_guard.ts";
import { AUTH_ATTEMPTS } from "../../kit/limits/limits.ts";
import { MAX_PASSWORD, passwordLength } from "../../kit/auth/account_rules.ts";
import type { Config } from "../../kit/config.ts";
import { HttpError } from "../../kit/errors.ts";
import { LIMITS, WINDOW_MS } from "../../kit/limits/limits.ts";
import { hashPassword, isArgon2idPhc, verifyPassword } from "../../kit/auth/password.ts";
import type { ApiKeyEntry, ScanLogEntry } from "../../kit/storage/store.ts";
import type { Account, AttemptWindow } from "../../kit/storage/store_accounts.ts";

/** How the administrator password is configured. */
export type AdminSetup = "hash" | "plain" | "none" | "invalid";

/** 403: no administrator password is configured (or it is not an argon2id PHC string). */
export class AdminNotConfiguredError extends HttpError {
  override name = "AdminNotConfiguredError";
  constructor(setup: AdminSetup) {
    super(
      403,
      setup === "invalid"
        ? "The administrator login is misconfigured: ADMIN_PASSWORD_HASH is not an argon2id PHC string. Make one with `deno task admin:hash`."
        : "The administrator login is not configured. Set ADMIN_PASSWORD_HASH (make one with `deno task admin:hash`) and restart.",
    );
  }
}

/** Which administrator password the configuration holds (never the password itself). */
export function adminSetup(
  config: Pick<Config, "adminPasswordHash" | "adminPassword">,
): AdminSetup {
  if (config.adminPasswordHash) return isArgon2idPhc(config.adminPasswordHash) ? "hash" : "invalid";
  return config.adminPassword ? "plain" : "none";
}

const plainHashes = new Map<string, Promise<string>>();

/** Verifies the administrator password (argon2id either way). */
export async function verifyAdminPassword(
  config: Pick<Config, "adminPasswordHash" | "adminPassword">,
  password: string,
): Promise<boolean> {
  const setup = adminSetup(config);
  if (setup === "hash") return await verifyPassword(config.adminPasswordHash!, password);
  if (setup !== "plain") return false;
  const plain = config.adminPassword!;
  let phc = plainHashes.get(plain);
  if (!phc) plainHashes.set(plain, phc = hashPassword(plain));
  return await verifyPassword(await phc, password);
}

/**
 * The administrator in the sign-in failure windows. A client sign-in that types it as its e-mail
 * counts there too, which costs a stranger the same solved check as posting here.
 */
const ADMIN_IDENTITY = "the administrator";

/**
 * The administrator login: configured? (403) -> the sign-in check (403; the harder one past the
 * failure limits) -> password (401, "Wrong password.", counted). With a challenge that cannot be
 * made harder: the attempt window (429) -> challenge (403) -> password (401).
 */
export async function adminLogIn(
  input: { password: string; turnstileToken: string; ip: string },
  deps: AccountDeps & { config: Config },
): Promise<void> {
  const setup = adminSetup(deps.config);
  if (setup === "none" || setup === "invalid") throw new AdminNotConfiguredError(setup);
  const guarded = deps.challenge.hardens === true;
  if (guarded) {
    await assertSignInCheck(deps, ADMIN_IDENTITY, input.turnstileToken, input.ip);
  } else {
    await admitAuthAttempt(deps, input.ip);
    await assertChallenge(deps, input.turnstileToken, input.ip);
  }
  const ok = passwordLength(input.password) <= MAX_PASSWORD &&
    await verifyAdminPassword(deps.config, input.password);
  if (ok) return;
  if (!guarded) throw new LoginFailedError("Wrong password.");
  await noteLoginFailure(deps, ADMIN_IDENTITY, input.ip);
  throw new LoginFailedError(
    "Wrong password.",
    await needsHarderCheck(deps, ADMIN_IDENTITY, input.ip),
  );
}

/** One scan rate-limit pool with entries in its window. */
export interface PoolPressure {
  pool: string;
  id: string;
  /** What to show for the id: a key pool shows the key's first characters and name. */
  label: string;
  used: number;
  limit: number;
  resetMs: number;
}

/** An account and its keys, for the overview. */
export interface AccountWithKeys {
  account: Pick<Account, "id" | "email" | "createdAt" | "lastLoginAt" | "activeKeys">;
  keys: ApiKeyEntry[];
}

/** Everything the administrator page shows. */
export interface AdminOverview {
  scans: ScanLogEntry[];
  accounts: AccountWithKeys[];
  /** Keys that belong to no account (made by operators or scripts). */
  otherKeys: ApiKeyEntry[];
  pools: PoolPressure[];
  attempts: AttemptWindow[];
  attemptLimit: number;
  totals: { accounts: number; keys: number; activeKeys: number };
}

/** Gathers the overview: recent scans, accounts with their keys, and the limits' pressure. */
export async function adminOverview(
  deps: AccountDeps,
  options: { scans?: number; accounts?: number } = {},
): Promise<AdminOverview> {
  const now = deps.now();
  const accountStore = deps.accounts;
  const [scans, accounts, keys, windows, attempts] = await Promise.all([
    deps.store.recentScans(options.scans ?? 50),
    accountStore.listAccounts(options.accounts ?? 200),
    deps.store.keys.listKeys(),
    deps.store.listLimitWindows(),
    accountStore.listAttempts(now, AUTH_ATTEMPTS.windowMs),
  ]);
  const byAccount = new Map<string, ApiKeyEntry[]>();
  const otherKeys: ApiKeyEntry[] = [];
  for (const key of keys) {
    if (key.accountId) {
      const list = byAccount.get(key.accountId) ?? [];
      list.push(key);
      byAccount.set(key.accountId, list);
    } else otherKeys.push(key);
  }
  const keysById = new Map(keys.map((k) => [k.id, k]));
  const pools: PoolPressure[] = [];
  for (const w of windows) {
    const live = (w.times ?? []).filter((t) => t > now - WINDOW_MS && t <= now).sort((a, b) =>
      a - b
    );
    if (!live.length) continue;
    const limit = (LIMITS as Record<string, number>)[w.pool] ?? 0;
    const key = w.pool === "key" ? keysById.get(w.id) : undefined;
    pools.push({
      pool: w.pool,
      id: w.id,
      label: key ? `${key.prefix}… (${key.name})` : w.id,
      used: live.length,
      limit,
      resetMs: live[0] + WINDOW_MS - now,
    });
  }
  pools.sort((a, b) => b.used / (b.limit || 1) - a.used / (a.limit || 1));
  return {
    scans,
    accounts: accounts.map((a) => ({
      account: {
        id: a.id,
        email: a.email,
        createdAt: a.createdAt,
        lastLoginAt: a.lastLoginAt,
        activeKeys: a.activeKeys,
      },
      keys: byAccount.get(a.id) ?? [],
    })),
    otherKeys,
    pools,
    attempts,
    attemptLimit: AUTH_ATTEMPTS.limit,
    totals: {
      accounts: accounts.length,
      keys: keys.length,
      activeKeys: keys.filter((k) => k.revokedAt === null).length,
    },
  };
}
