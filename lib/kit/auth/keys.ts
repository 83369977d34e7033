/**
 * Client API keys: `uvk_` (visibility) or `usk_` (schema) followed by 43 random characters. Only
 * the SHA-256 of a key is stored; the key itself is returned once, at creation.
 *
 * @example
 * ```ts
 * const { key, entry } = await createApiKey(store, "uvk_", { name: "CI pipeline" });
 * // give `key` to the user now; it cannot be shown again
 * await revokeApiKey(store, entry.id);
 * ```
 */
import { randomToken, sha256Hex } from "./crypto.ts";
import type { ApiKeyEntry, Store } from "../storage/store.ts";

/** Longest accepted key name. */
export const MAX_KEY_NAME = 60;

/** A key just created: the only moment its full text exists. */
export interface CreatedKey {
  key: string;
  entry: ApiKeyEntry;
}

/** Creates and stores a new key. */
export async function createApiKey(
  store: Store,
  prefix: string,
  options: { name: string; accountId?: string | null; now?: number },
): Promise<CreatedKey> {
  const name = options.name.trim().slice(0, MAX_KEY_NAME);
  if (!name) throw new Error("a key needs a name");
  for (;;) {
    const key = `${prefix}${randomToken(32)}`;
    const entry: ApiKeyEntry = {
      id: crypto.randomUUID(),
      hash: sha256Hex(key),
      prefix: key.slice(0, prefix.length + 6),
      name,
      accountId: options.accountId ?? null,
      createdAt: options.now ?? Date.now(),
      revokedAt: null,
      lastUsedAt: null,
    };
    // A collision of 256 random bits does not happen, but a unique key is checked, not assumed.
    if (await store.keys.createKey(entry)) return { key, entry };
  }
}

/** Revokes a key: every later request with it gets 401. Returns the entry, or null if unknown. */
export function revokeApiKey(
  store: Store,
  id: string,
  now = Date.now(),
): Promise<ApiKeyEntry | null> {
  return store.keys.updateKey(id, (e) => (e.revokedAt ? null : { ...e, revokedAt: now }));
}

/** Looks up a presented key; null when unknown or revoked. */
export function findActiveKey(store: Store, key: string): Promise<ApiKeyEntry | null> {
  return findActiveKeyByHash(store, sha256Hex(key));
}

/** Looks up a key by the SHA-256 (hex) of its text; null when unknown or revoked. */
export async function findActiveKeyByHash(
  store: Store,
  hash: string,
): Promise<ApiKeyEntry | null> {
  const entry = await store.keys.getKeyByHash(hash);
  return entry && entry.revokedAt === null ? entry : null;
}

/** "Last used" is written at most this often per key, so a busy key does not write on every call. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Records that a key was just used (shown as "last used" in the dashboard). Cheap: nothing is
 * written when the entry in hand was marked less than a minute ago, and a revoked key is left as
 * it is.
 */
export async function touchKey(store: Store, entry: ApiKeyEntry, now: number): Promise<void> {
  const fresh = (e: ApiKeyEntry) =>
    e.lastUsedAt !== null && now - e.lastUsedAt < LAST_USED_PRECISION_MS && e.lastUsedAt <= now;
  if (fresh(entry)) return;
  await store.keys.updateKeyByHash(
    entry.hash,
    (e) => (fresh(e) || e.revokedAt ? null : { ...e, lastUsedAt: now }),
  );
}
