/**
 * The KV layout of client accounts, sessions and sign-in attempt limits (lib/kit/storage/store.ts holds the
 * rest). Every key starts with the service name, like lib/kit/storage/store.ts:
 *
 *   [svc, "accounts", accountId]                 -> Account        one client account
 *   [svc, "accounts_by_email", email]            -> accountId      unique: one account per address
 *   [svc, "accounts_by_time", createdAt, id]     -> accountId      newest-first listing (admin)
 *   [svc, "sessions", sha256(token)]             -> SessionEntry   a client session (expireIn)
 *   [svc, "admin_sessions", sha256(token)]       -> SessionEntry   an administrator session (expireIn)
 *   [svc, "session_flash", sha256(token)]        -> FlashEntry     a one-time message for a session,
 *                                                                  AES-GCM encrypted with a key
 *                                                                  derived from the session token
 *   [svc, "auth_attempts", ip]                   -> number[]       sign-up/login attempt times (log)
 *
 * With a shared limiter (Redis, lib/kit/limits/limiter_redis.ts) the attempt windows live there instead, as
 * the pool "auth" of that limiter.
 *
 * An account and its two indexes are created in one atomic commit with `versionstamp: null`
 * checks, so two sign-ups racing for one address cannot both win. Session tokens are stored only
 * as SHA-256 hashes, passwords only as argon2id PHC strings.
 */
import type { PoolSpec } from "./store.ts";
import type { Limiter } from "../limits/limiter.ts";

/** One client account. */
export interface Account {
  id: string;
  /** Normalised (lowercase, punycode domain). */
  email: string;
  /** argon2id PHC string. */
  passwordHash: string;
  createdAt: number;
  lastLoginAt: number | null;
  /** Keys not revoked; a slot is reserved before a key is created (see lib/features/accounts/accounts.ts). */
  activeKeys: number;
  /** Keys ever created (bounded, so revoked keys cannot pile up without end). */
  keysCreated: number;
}

/** A stored session (the token itself is never stored). */
export interface SessionEntry {
  /** The account of a client session; null for the administrator. */
  accountId: string | null;
  createdAt: number;
  /** Checked against the injected clock; KV's expireIn only cleans up. */
  expiresAt: number;
  /** The synchronizer token every state-changing form of this session must carry. */
  csrf: string;
}

/** An encrypted one-time message (e.g. a new key, shown once after a redirect). */
export interface FlashEntry {
  iv: string;
  data: string;
}

/** Which kind of session a key holds. */
export type SessionKind = "client" | "admin";

/** How full one attempt window is. */
export interface AttemptWindow {
  ip: string;
  used: number;
  resetMs: number;
}

const MAX_RETRIES = 200;
/** The limiter pool of sign-in attempts (by IP). */
const AUTH_POOL = "auth";

/**
 * The KV keys of the sign-in attempt windows (`[svc, "auth_attempts", ip]`) and of the account caps
 * beside them (`[svc, "account_caps", pool, id]`, lib/kit/limits/limits.ts CAPS), for the KV limiter
 * the composition root builds. Each expires with its window.
 */
export function attemptKeys(service: string): {
  key(pool: string, id: string): Deno.KvKey;
  prefix(pool?: string): Deno.KvKey;
} {
  return {
    key: (pool, id) =>
      pool === AUTH_POOL ? [service, "auth_attempts", id] : [service, "account_caps", pool, id],
    prefix: (pool) =>
      pool === undefined || pool === AUTH_POOL
        ? [service, "auth_attempts"]
        : [service, "account_caps", pool],
  };
}

/** Typed access to accounts, sessions and attempt limits of one service. */
export class AccountStore {
  /**
   * Where the attempt windows live: KV (the keys of {@link attemptKeys}), or a shared limiter.
   * Built by the composition root (lib/app/server.ts accountStoreOf), never here.
   */
  constructor(readonly kv: Deno.Kv, readonly service: string, readonly attempts: Limiter) {}

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  #sessionKey(kind: SessionKind, hash: string): Deno.KvKey {
    return this.#k(kind === "admin" ? "admin_sessions" : "sessions", hash);
  }

  /** Creates an account; false when its e-mail (or id) is already taken. */
  async createAccount(account: Account): Promise<boolean> {
    const byId = this.#k("accounts", account.id);
    const byEmail = this.#k("accounts_by_email", account.email);
    const result = await this.kv.atomic()
      .check({ key: byId, versionstamp: null }, { key: byEmail, versionstamp: null })
      .set(byId, account)
      .set(byEmail, account.id)
      .set(this.#k("accounts_by_time", account.createdAt, account.id), account.id)
      .commit();
    return result.ok;
  }

  /** An account by id. */
  async getAccount(id: string): Promise<Account | null> {
    return (await this.kv.get<Account>(this.#k("accounts", id))).value;
  }

  /** An account by its normalised e-mail. */
  async getAccountByEmail(email: string): Promise<Account | null> {
    const id = (await this.kv.get<string>(this.#k("accounts_by_email", email))).value;
    return id ? await this.getAccount(id) : null;
  }

  /**
   * Applies a change to an account with a versionstamp check, retrying on conflict. `change`
   * returns the new value, or null to leave it as it is (the current value is returned).
   */
  async updateAccount(
    id: string,
    change: (account: Account) => Account | null,
  ): Promise<Account | null> {
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const current = await this.kv.get<Account>(this.#k("accounts", id));
      if (!current.value) return null;
      const next = change(current.value);
      if (!next) return current.value;
      if ((await this.kv.atomic().check(current).set(current.key, next).commit()).ok) return next;
      await backoff(attempt);
    }
    throw new Error("updateAccount: too much contention");
  }

  /** The newest accounts first. */
  async listAccounts(limit = 200): Promise<Account[]> {
    const ids: string[] = [];
    for await (
      const e of this.kv.list<string>({ prefix: this.#k("accounts_by_time") }, {
        reverse: true,
        limit,
      })
    ) ids.push(e.value);
    const out: Account[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const batch = await this.kv.getMany<Account[]>(
        ids.slice(i, i + 10).map((id) => this.#k("accounts", id)),
      );
      for (const e of batch) if (e.value) out.push(e.value);
    }
    return out;
  }

  /** Stores a session under the hash of its token. */
  async putSession(kind: SessionKind, hash: string, entry: SessionEntry, ttlMs: number) {
    await this.kv.set(this.#sessionKey(kind, hash), entry, { expireIn: ttlMs });
  }

  /** A session by the hash of its token (strongly consistent: a logout is seen at once). */
  async getSession(kind: SessionKind, hash: string): Promise<SessionEntry | null> {
    return (await this.kv.get<SessionEntry>(this.#sessionKey(kind, hash), {
      consistency: "strong",
    })).value;
  }

  /** Deletes a session and its pending flash. */
  async deleteSession(kind: SessionKind, hash: string): Promise<void> {
    await this.kv.atomic()
      .delete(this.#sessionKey(kind, hash))
      .delete(this.#k("session_flash", hash))
      .commit();
  }

  /** Stores a one-time message for a session. */
  async putFlash(hash: string, flash: FlashEntry, ttlMs: number): Promise<void> {
    await this.kv.set(this.#k("session_flash", hash), flash, { expireIn: ttlMs });
  }

  /** Reads and deletes a session's one-time message: two readers never both get it. */
  async takeFlash(hash: string): Promise<FlashEntry | null> {
    const key = this.#k("session_flash", hash);
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const current = await this.kv.get<FlashEntry>(key);
      if (!current.value) return null;
      if ((await this.kv.atomic().check(current).delete(key).commit()).ok) return current.value;
      await backoff(attempt);
    }
    throw new Error("takeFlash: too much contention");
  }

  /**
   * Admits one sign-up or login attempt from an IP into its sliding window (the window log of
   * Store.admitScan, or the shared limiter): atomic, so concurrent attempts never admit one more
   * than `limit`.
   */
  async admitAttempt(
    ip: string,
    limit: number,
    windowMs: number,
    now: number,
    extra: PoolSpec[] = [],
  ): Promise<
    { ok: true; used: number } | { ok: false; retryAfterMs: number; pool: PoolSpec }
  > {
    const pool = { pool: AUTH_POOL, id: ip, limit, windowMs };
    const decision = await this.attempts.admit([pool, ...extra], now, crypto.randomUUID());
    if (decision.status === "admitted") return { ok: true, used: decision.used[0] };
    if (decision.status === "limited") {
      return { ok: false, retryAfterMs: decision.retryAfterMs, pool: decision.pool };
    }
    throw new Error("admitAttempt: unexpected busy answer");
  }

  /**
   * Admits one unit into `pools` (e.g. the sign-up caps of lib/kit/limits/limits.ts) atomically, or into
   * none; the answer names the full pool.
   */
  async admitCaps(
    pools: PoolSpec[],
    now: number,
  ): Promise<{ ok: true } | { ok: false; retryAfterMs: number; pool: PoolSpec }> {
    if (pools.length === 0) return { ok: true };
    const decision = await this.attempts.admit(pools, now, crypto.randomUUID());
    if (decision.status === "admitted") return { ok: true };
    if (decision.status === "limited") {
      return { ok: false, retryAfterMs: decision.retryAfterMs, pool: decision.pool };
    }
    throw new Error("admitCaps: unexpected busy answer");
  }

  /**
   * Deletes sessions (client and administrator) past their expiry, one-time messages whose
   * session is gone, and KV attempt windows whose every attempt is older than `windowMs`
   * (the periodic clean-up, lib/kit/storage/cleanup.ts). Deletes check the versionstamp they read.
   */
  async purgeExpired(
    now: number,
    windowMs: number,
  ): Promise<{ sessions: number; flashes: number; attemptWindows: number }> {
    const out = { sessions: 0, flashes: 0, attemptWindows: 0 };
    const drop = async (e: Deno.KvEntry<unknown>) =>
      (await this.kv.atomic().check(e).delete(e.key).commit()).ok;
    for (const kind of ["client", "admin"] as const) {
      const prefix = this.#sessionKey(kind, "").slice(0, -1);
      for await (const e of this.kv.list<SessionEntry>({ prefix })) {
        if (e.value.expiresAt <= now && await drop(e)) out.sessions++;
      }
    }
    for await (const e of this.kv.list<FlashEntry>({ prefix: this.#k("session_flash") })) {
      const hash = String(e.key[2]);
      const [client, admin] = await this.kv.getMany([
        this.#sessionKey("client", hash),
        this.#sessionKey("admin", hash),
      ]);
      if (!client.value && !admin.value && await drop(e)) out.flashes++;
    }
    if (this.attempts.kind === "kv") {
      for await (const e of this.kv.list<number[]>({ prefix: this.#k("auth_attempts") })) {
        if ((e.value ?? []).every((t) => t <= now - windowMs) && await drop(e)) {
          out.attemptWindows++;
        }
      }
    }
    return out;
  }

  /** Every IP with attempts in the current window, busiest first. */
  async listAttempts(now: number, windowMs: number, limit = 500): Promise<AttemptWindow[]> {
    const out: AttemptWindow[] = [];
    for (const w of await this.attempts.windows({ pool: AUTH_POOL, limit })) {
      const live = w.times.filter((t) => t > now - windowMs && t <= now);
      if (live.length) out.push({ ip: w.id, used: live.length, resetMs: live[0] + windowMs - now });
    }
    return out.sort((a, b) => b.used - a.used);
  }
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(20, attempt) * Math.random();
  return new Promise((r) => setTimeout(r, ms));
}
