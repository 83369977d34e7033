/**
 * Client API keys of one service, in Deno KV. The key itself is never stored: only its SHA-256.
 *
 *   [svc, "keys", sha256(key)]            -> ApiKeyEntry     a client API key, by its hash
 *   [svc, "keys_by_id", keyId]            -> sha256(key)
 *   [svc, "keys_by_account", acct, keyId] -> sha256(key)
 *
 * Unique things are created with `versionstamp: null` checks; updates check the versionstamp they
 * read and retry on conflict.
 */
import { backoff } from "../limits/limiter.ts";
import { FreshReads } from "./fresh_reads.ts";
import type { ApiKeyEntry } from "./store_types.ts";

const MAX_ATTEMPTS = 1000;

/** Typed access to one service's API keys (`Store.keys`). */
export class KeyStore {
  #keyReads = new FreshReads<ApiKeyEntry | null>();

  constructor(readonly kv: Deno.Kv, readonly service: string) {}

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  /** Saves a new API key; fails if its hash or id already exists. */
  async createKey(entry: ApiKeyEntry): Promise<boolean> {
    const byHash = this.#k("keys", entry.hash);
    const byId = this.#k("keys_by_id", entry.id);
    const op = this.kv.atomic()
      .check({ key: byHash, versionstamp: null }, { key: byId, versionstamp: null })
      .set(byHash, entry)
      .set(byId, entry.hash);
    if (entry.accountId) op.set(this.#k("keys_by_account", entry.accountId, entry.id), entry.hash);
    return (await op.commit()).ok;
  }

  /**
   * A key by the SHA-256 of its full text, strongly consistent: a revocation committed before the
   * call is seen. Concurrent lookups of one key share a read that started after they arrived
   * (lib/kit/storage/fresh_reads.ts), so a busy key costs a read per KV round trip, not one per request.
   */
  getKeyByHash(hash: string): Promise<ApiKeyEntry | null> {
    return this.#keyReads.read(
      hash,
      async () =>
        (await this.kv.get<ApiKeyEntry>(this.#k("keys", hash), { consistency: "strong" })).value,
    );
  }

  /** A key by its id. */
  async getKeyById(id: string): Promise<ApiKeyEntry | null> {
    const hash = (await this.kv.get<string>(this.#k("keys_by_id", id))).value;
    return hash ? await this.getKeyByHash(hash) : null;
  }

  /** Applies a change to a key with a versionstamp check, retrying on conflict. */
  async updateKey(
    id: string,
    change: (entry: ApiKeyEntry) => ApiKeyEntry | null,
  ): Promise<ApiKeyEntry | null> {
    const hash = (await this.kv.get<string>(this.#k("keys_by_id", id))).value;
    return hash ? await this.updateKeyByHash(hash, change) : null;
  }

  /** {@link updateKey} for a key whose hash is in hand (no lookup of its id). */
  async updateKeyByHash(
    hash: string,
    change: (entry: ApiKeyEntry) => ApiKeyEntry | null,
  ): Promise<ApiKeyEntry | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.kv.get<ApiKeyEntry>(this.#k("keys", hash));
      if (!current.value) return null;
      const updated = change(current.value);
      if (!updated) return current.value;
      if ((await this.kv.atomic().check(current).set(current.key, updated).commit()).ok) {
        return updated;
      }
      await backoff(attempt);
    }
    throw new Error("updateKey: too much contention");
  }

  /** Every key of an account (or, with no account, every key), oldest first. */
  async listKeys(accountId?: string): Promise<ApiKeyEntry[]> {
    const hashes: string[] = [];
    const prefix = accountId ? this.#k("keys_by_account", accountId) : this.#k("keys_by_id");
    for await (const e of this.kv.list<string>({ prefix })) hashes.push(e.value);
    const out: ApiKeyEntry[] = [];
    for (let i = 0; i < hashes.length; i += 10) {
      const batch = await this.kv.getMany<ApiKeyEntry[]>(
        hashes.slice(i, i + 10).map((h) => this.#k("keys", h)),
      );
      for (const e of batch) if (e.value) out.push(e.value);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }
}
