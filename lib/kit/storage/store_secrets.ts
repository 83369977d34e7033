/**
 * The KV layout of what every service of a store shares, not prefixed by a service name:
 *
 *   ["secrets", name]              -> string   a secret generated once and kept (e.g. "altcha",
 *                                              the ALTCHA challenges' HMAC key)
 *   ["altcha_spent", signature]    -> true     a solved ALTCHA challenge, spent (expires after the
 *                                              challenge itself)
 *
 * Both are created with `versionstamp: null` checks: the first writer wins, every other reader
 * gets the first writer's value (a secret) or is refused (a replayed challenge).
 */

/** The key of a kept secret. */
export function secretKey(name: string): Deno.KvKey {
  return ["secrets", name];
}

/** The key of a spent ALTCHA challenge, by its signature. */
export function spentChallengeKey(signature: string): Deno.KvKey {
  return ["altcha_spent", signature];
}

/**
 * The secret kept under `name`, created with `fresh()` by the first caller; callers racing on an
 * empty store all get the one that was stored.
 */
export async function keptSecret(kv: Deno.Kv, name: string, fresh: () => string): Promise<string> {
  const key = secretKey(name);
  const existing = await kv.get<string>(key);
  if (existing.value) return existing.value;
  const value = fresh();
  const created = await kv.atomic().check({ key, versionstamp: null }).set(key, value).commit();
  return created.ok ? value : (await kv.get<string>(key)).value!;
}

/** Spends a solved challenge: true the first time, false for any replay (until `ttlMs` passes). */
export async function spendChallenge(
  kv: Deno.Kv,
  signature: string,
  ttlMs: number,
): Promise<boolean> {
  const key = spentChallengeKey(signature);
  const spent = await kv.atomic().check({ key, versionstamp: null })
    .set(key, true, { expireIn: ttlMs }).commit();
  return spent.ok;
}
