/**
 * Client accounts: sign-up, login, and the keys an account owns. The rules of the spec
 * (../shared/api/visibility.md, "Authentication" and "Limits"):
 * - a plausible-looking e-mail (lib/kit/auth/account_rules.ts), one account per address, never e-mailed;
 * - a password of 12 to 256 characters, stored as argon2id (lib/kit/auth/password.ts);
 * - sign-up, login and the administrator login are all behind the browser challenge; sign-up and
 *   the administrator login share one per-IP attempt window ({@link AUTH_ATTEMPTS}; beyond it,
 *   429 with retryAfterSeconds); failed client logins are limited per account and per address
 *   with no lockout: past the limits, a harder check (lib/kit/auth/login_guard.ts);
 * - a failed login says the same thing, and costs the same argon2 verification, whether or not
 *   the e-mail has an account.
 */
import {
  checkEmail,
  checkKeyName,
  checkPassword,
  MAX_PASSWORD,
  passwordLength,
} from "../../kit/auth/account_rules.ts";
import type { ChallengeProvider } from "../../kit/auth/challenge.ts";
import { MAX_TOKEN_LENGTH } from "../../kit/auth/challenge.ts";
import {
  HttpError,
  NotFoundError,
  RateLimitedError,
  VerificationFailedError,
} from "../../kit/errors.ts";
import { ipv6Prefix48 } from "../../kit/net/client_ip.ts";
import { createApiKey, type CreatedKey, MAX_KEY_NAME } from "../../kit/auth/keys.ts";
import { AUTH_ATTEMPTS, CAPS, SIGNUP_WINDOW_MS } from "../../kit/limits/limits.ts";
import { dummyHash, hashPassword, verifyPassword } from "../../kit/auth/password.ts";
import {
  HarderCheckNeededError,
  needsHarderCheck,
  noteLoginFailure,
} from "../../kit/auth/login_guard.ts";
import type { ApiKeyEntry, Store } from "../../kit/storage/store.ts";
import type { Account, AccountStore } from "../../kit/storage/store_accounts.ts";

/** Keys an account may have that are not revoked. */
export const MAX_ACTIVE_KEYS = 20;
/** Keys an account may ever create (revoked ones included), so lists stay bounded. */
export const MAX_KEYS_CREATED = 200;

/** What account operations need (a subset of AppDeps). */
export interface AccountDeps {
  store: Store;
  /** The service's account store (AppDeps.accounts). */
  accounts: AccountStore;
  challenge: ChallengeProvider;
  now: () => number;
}

/** 400/409 with a reason per form field (re-rendered next to each field). */
export class FieldError extends HttpError {
  override name = "FieldError";
  constructor(status: 400 | 409, readonly fields: Record<string, string>) {
    super(status, Object.values(fields).join(" "));
  }
  override body(): Record<string, unknown> {
    return { error: this.message, fields: this.fields };
  }
}

/** 401: the same answer for an unknown e-mail and a wrong password. */
export class LoginFailedError extends HttpError {
  override name = "LoginFailedError";
  /** @param harder the next sign-in needs the harder check (the form shows it). */
  constructor(message = "Wrong e-mail address or password.", readonly harder = false) {
    super(401, message);
  }
}

/** 409: the account has as many keys as it may have. */
export class KeyLimitError extends HttpError {
  override name = "KeyLimitError";
  constructor(message: string) {
    super(409, message);
  }
}

/**
 * Counts one attempt from `ip` in the shared sign-in window.
 * @throws RateLimitedError (429) when the window is full.
 */
export async function admitAuthAttempt(deps: AccountDeps, ip: string): Promise<void> {
  const { limit, windowMs } = AUTH_ATTEMPTS;
  // An IPv6 client also counts in its /48, so rotating /64s does not give fresh attempts.
  const prefix = ipv6Prefix48(ip);
  const extra = prefix
    ? [{ pool: "auth48", id: prefix, limit: CAPS.authAttemptsPer48, windowMs }]
    : [];
  const admitted = await deps.accounts.admitAttempt(
    ip,
    limit,
    windowMs,
    deps.now(),
    extra,
  );
  if (!admitted.ok) {
    const seconds = Math.max(1, Math.ceil(admitted.retryAfterMs / 1000));
    throw new RateLimitedError(
      `Too many sign-up and sign-in attempts from this network: at most ${admitted.pool.limit} ` +
        `every ${windowMs / 60_000} minutes. Try again in ${describeWait(seconds)}.`,
      seconds,
    );
  }
}

/**
 * Counts one new account against the sign-up caps of lib/kit/limits/limits.ts: per address (an IPv4 address
 * or an IPv6 /64) and per IPv6 /48, per day.
 * @throws RateLimitedError (429) when a cap is full.
 */
export async function admitSignup(deps: AccountDeps, ip: string): Promise<void> {
  const prefix = ipv6Prefix48(ip);
  const pools = [
    { pool: "signup", id: ip, limit: CAPS.signupsPerAddress, windowMs: SIGNUP_WINDOW_MS },
    ...(prefix
      ? [{ pool: "signup48", id: prefix, limit: CAPS.signupsPer48, windowMs: SIGNUP_WINDOW_MS }]
      : []),
  ];
  const admitted = await deps.accounts.admitCaps(pools, deps.now());
  if (!admitted.ok) {
    const seconds = Math.max(1, Math.ceil(admitted.retryAfterMs / 1000));
    throw new RateLimitedError(
      `Too many accounts created from this network: at most ${admitted.pool.limit} per day. ` +
        `Try again in ${describeWait(seconds)}.`,
      seconds,
    );
  }
}

/** "14 minutes", "1 minute", "40 seconds". */
export function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  if (seconds >= 90 * 60) return `${Math.ceil(seconds / 3600)} hours`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** Verifies the browser challenge's token. @throws VerificationFailedError (403). */
export async function assertChallenge(deps: AccountDeps, token: string, ip: string) {
  if (!token || token.length > MAX_TOKEN_LENGTH || !(await deps.challenge.verify(token, ip))) {
    throw new VerificationFailedError();
  }
}

/** Whether the token is a solved harder check (lib/kit/auth/login_guard.ts). */
async function passesHarder(deps: AccountDeps, token: string, ip: string): Promise<boolean> {
  return !!token && token.length <= MAX_TOKEN_LENGTH &&
    await deps.challenge.verify(token, ip, { hard: true });
}

/**
 * The browser check a sign-in to `who` (an e-mail address, or the administrator) from `ip` needs:
 * the usual one, or past the failure limits of lib/kit/auth/login_guard.ts the harder one (where
 * the challenge can be made harder). Nothing is counted here.
 * @throws VerificationFailedError (403), HarderCheckNeededError (403).
 */
export async function assertSignInCheck(
  deps: AccountDeps,
  who: string,
  token: string,
  ip: string,
): Promise<void> {
  const harder = deps.challenge.hardens === true && await needsHarderCheck(deps, who, ip);
  if (!harder) await assertChallenge(deps, token, ip);
  else if (!(await passesHarder(deps, token, ip))) throw new HarderCheckNeededError();
}

/**
 * Creates an account, in the order that keeps each step protected by the one before: attempt
 * limit (429), field rules (400, every field's reason at once), challenge (403), one account per
 * address (409), the daily sign-up caps per network (429), then the argon2id hash and an atomic
 * create (a racing twin gets 409 too).
 */
export async function signUp(
  input: { email: string; password: string; turnstileToken: string; ip: string },
  deps: AccountDeps,
): Promise<Account> {
  await admitAuthAttempt(deps, input.ip);
  const email = checkEmail(input.email);
  const fields: Record<string, string> = {};
  if (!email.ok) fields.email = email.reason;
  const password = checkPassword(input.password, email.ok ? email.email : undefined);
  if (password) fields.password = password;
  if (!email.ok || password) throw new FieldError(400, fields);
  await assertChallenge(deps, input.turnstileToken, input.ip);
  const accounts = deps.accounts;
  const taken = () =>
    new FieldError(409, {
      email: "An account with this e-mail address already exists. Sign in instead.",
    });
  if (await accounts.getAccountByEmail(email.email)) throw taken();
  await admitSignup(deps, input.ip);
  const account: Account = {
    id: crypto.randomUUID(),
    email: email.email,
    passwordHash: await hashPassword(input.password),
    createdAt: deps.now(),
    lastLoginAt: deps.now(),
    activeKeys: 0,
    keysCreated: 0,
  };
  if (!(await accounts.createAccount(account))) throw taken();
  return account;
}

/**
 * Checks an e-mail and password. An unknown address is verified against a dummy hash, so both
 * failures take one argon2id verification and give the same {@link LoginFailedError}.
 *
 * No lockout (lib/kit/auth/login_guard.ts): the challenge first (403, nothing counted); past the
 * failure limits of the account or the address, the harder check (403 until it is solved); a
 * failure is counted for both. A stranger's failures never keep the owner out.
 */
export async function logIn(
  input: { email: string; password: string; turnstileToken: string; ip: string },
  deps: AccountDeps,
): Promise<Account> {
  await assertSignInCheck(deps, input.email, input.turnstileToken, input.ip);
  const accounts = deps.accounts;
  const email = checkEmail(input.email);
  const account = email.ok ? await accounts.getAccountByEmail(email.email) : null;
  const plausible = passwordLength(input.password) <= MAX_PASSWORD;
  const verified = await verifyPassword(
    account?.passwordHash ?? await dummyHash(),
    plausible ? input.password : "",
  );
  if (!account || !verified || !plausible) {
    await noteLoginFailure(deps, input.email, input.ip);
    throw new LoginFailedError(undefined, await needsHarderCheck(deps, input.email, input.ip));
  }
  return await accounts.updateAccount(account.id, (a) => ({ ...a, lastLoginAt: deps.now() })) ??
    account;
}

/**
 * Creates a named key for an account. A slot is reserved on the account first (a versionstamp
 * checked update), so concurrent requests can never take an account past {@link MAX_ACTIVE_KEYS}.
 * @throws FieldError (400) for a bad name, KeyLimitError (409) when the account is full.
 */
export async function createAccountKey(
  deps: AccountDeps,
  prefix: string,
  accountId: string,
  rawName: string,
): Promise<CreatedKey> {
  const name = checkKeyName(rawName, MAX_KEY_NAME);
  if (!name.ok) throw new FieldError(400, { name: name.reason });
  const accounts = deps.accounts;
  let refusal: string | null = null;
  const reserved = await accounts.updateAccount(accountId, (a) => {
    refusal = a.activeKeys >= MAX_ACTIVE_KEYS
      ? `You already have ${MAX_ACTIVE_KEYS} active keys, the most an account may have. Revoke one you no longer use first.`
      : a.keysCreated >= MAX_KEYS_CREATED
      ? `This account has created ${MAX_KEYS_CREATED} keys, the most an account may. Create a new account for more.`
      : null;
    return refusal ? null : { ...a, activeKeys: a.activeKeys + 1, keysCreated: a.keysCreated + 1 };
  });
  if (!reserved) throw new NotFoundError("No such account");
  if (refusal) throw new KeyLimitError(refusal);
  try {
    return await createApiKey(deps.store, prefix, {
      name: name.name,
      accountId,
      now: deps.now(),
    });
  } catch (error) {
    await accounts.updateAccount(accountId, (a) => ({
      ...a,
      activeKeys: Math.max(0, a.activeKeys - 1),
    }));
    throw error;
  }
}

/**
 * Revokes a key at once (the next request with it gets 401). With `accountId`, only a key of
 * that account (any other id is 404, so key ids of other accounts are not revealed); without it,
 * any key (the administrator). Revoking a revoked key changes nothing.
 */
export async function revokeKey(
  deps: AccountDeps,
  keyId: string,
  options: { accountId?: string } = {},
): Promise<ApiKeyEntry> {
  const existing = await deps.store.keys.getKeyById(keyId);
  if (!existing || (options.accountId !== undefined && existing.accountId !== options.accountId)) {
    throw new NotFoundError("No such key");
  }
  const now = deps.now();
  let revokedNow = false;
  const entry = await deps.store.keys.updateKey(keyId, (e) => {
    revokedNow = e.revokedAt === null;
    return revokedNow ? { ...e, revokedAt: now } : null;
  });
  if (!entry) throw new NotFoundError("No such key");
  if (revokedNow && entry.accountId) {
    await deps.accounts.updateAccount(entry.accountId, (a) => ({
      ...a,
      activeKeys: Math.max(0, a.activeKeys - 1),
    }));
  }
  return entry;
}
