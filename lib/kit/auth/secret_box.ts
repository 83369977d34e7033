/**
 * The instance's secret box: what features must keep, not hash, encrypted at rest (AES-256-GCM):
 * a watch's webhook URL and signing secret (lib/features/watch/), users' own vendor keys
 * (lib/features/answers/user_keys.ts). The signing secret must be kept, not hashed: the server
 * needs it to sign every delivery. And a Slack or Discord incoming
 * webhook URL is itself a credential (anyone holding it may post to the channel). So both are
 * sealed with a key that is not in the same record: WATCH_SECRET_KEY when the operator sets it
 * (then a copy of KV alone reveals neither), else a random key generated once and kept in KV
 * (that protects against a record leaking through a log or an export, not against a copy of the
 * whole store: start-up warns). Which key: {@link openInstanceBox}; the move off the kept one:
 * lib/features/watch/sealing.ts.
 *
 * Each sealed value is bound to its watch (the watch id is the additional authenticated data), so
 * a sealed secret copied onto another watch does not open.
 */
import { createHash } from "node:crypto";
import { randomToken } from "./crypto.ts";
import { keptSecret, secretKey } from "../storage/store_secrets.ts";

/** A value sealed with AES-GCM: `v1.` then base64 of the iv and of the ciphertext with its tag. */
export type Sealed = string;

/**
 * Seals with one key and opens with it or with the keys it replaced (rotation: WATCH_SECRET_KEY
 * is the new key, WATCH_SECRET_KEY_PREVIOUS the old one, until every value sealed with the old
 * key has been sealed again: {@link reseal}).
 */
export class SecretBox {
  readonly #key: Promise<CryptoKey>;
  readonly #previous: Promise<CryptoKey>[];

  /**
   * `keyMaterial`: any secret text; the AES key is its SHA-256 (with a purpose label).
   * `previous`: keys that only open (values sealed before a rotation).
   */
  constructor(keyMaterial: string, previous: readonly string[] = []) {
    this.#key = aesKey(keyMaterial);
    this.#previous = previous.filter((p) => p !== keyMaterial).map(aesKey);
  }

  /** Encrypts `plain`, bound to `context` (the watch id). */
  async seal(plain: string, context: string): Promise<Sealed> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
      await this.#key,
      new TextEncoder().encode(plain),
    );
    return `v1.${b64(iv)}.${b64(new Uint8Array(data))}`;
  }

  /** Decrypts a sealed value; null when it is not ours, or not for `context`. */
  async open(sealed: Sealed, context: string): Promise<string | null> {
    return (await this.openWith(sealed, context))?.plain ?? null;
  }

  /**
   * Opens a value sealed with a previous key and seals it again with the current one; null when
   * it is already sealed with the current key or opens with no key (rotation: stores write the
   * new value back when they read one).
   */
  async reseal(sealed: Sealed, context: string): Promise<Sealed | null> {
    const opened = await this.openWith(sealed, context);
    return opened && !opened.current ? await this.seal(opened.plain, context) : null;
  }

  async openWith(
    sealed: Sealed,
    context: string,
  ): Promise<{ plain: string; current: boolean } | null> {
    const [v, iv, data] = sealed.split(".");
    if (v !== "v1" || !iv || !data) return null;
    const keys = [this.#key, ...this.#previous];
    for (let i = 0; i < keys.length; i++) {
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: unb64(iv), additionalData: new TextEncoder().encode(context) },
          await keys[i],
          unb64(data),
        );
        return { plain: new TextDecoder().decode(plain), current: i === 0 };
      } catch {
        // Not this key: the next (older) one.
      }
    }
    return null;
  }
}

function aesKey(keyMaterial: string): Promise<CryptoKey> {
  const raw = new Uint8Array(
    createHash("sha256").update(`watch-secret-box\0${keyMaterial}`).digest(),
  );
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function unb64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** The keys of the instance's box (lib/kit/config.ts: WATCH_SECRET_KEY, WATCH_SECRET_KEY_PREVIOUS). */
export interface SecretBoxKeys {
  /** The key that seals; undefined: a random key generated once and kept in KV. */
  secretKey: string | undefined;
  /** Keys that only open (values sealed before a rotation). */
  previousSecretKeys: string[];
}

/** The name of the key kept in KV when WATCH_SECRET_KEY is unset. */
export const KEPT_KEY_NAME = "watch-secret-box";

/**
 * The box of this store: WATCH_SECRET_KEY seals when set (the key kept in KV from before, if any,
 * and WATCH_SECRET_KEY_PREVIOUS only open); else the kept key, made on first use.
 */
export async function openInstanceBox(kv: Deno.Kv, keys: SecretBoxKeys): Promise<SecretBox> {
  if (!keys.secretKey) {
    const kept = await keptSecret(kv, KEPT_KEY_NAME, () => randomToken(32));
    return new SecretBox(kept, keys.previousSecretKeys);
  }
  const kept = (await kv.get<string>(secretKey(KEPT_KEY_NAME))).value;
  return new SecretBox(keys.secretKey, [...keys.previousSecretKeys, ...(kept ? [kept] : [])]);
}

/**
 * The instance's one box, opened on first use (a key kept in KV is read or made then): the app
 * builds it once and hands it to every feature that seals (watch, answer presence), and a command
 * line of the instance builds it the same way, so all open what the others sealed.
 */
export function instanceSecretBox(kv: Deno.Kv, keys: SecretBoxKeys): () => Promise<SecretBox> {
  let box: Promise<SecretBox> | null = null;
  return () => box ??= openInstanceBox(kv, keys);
}
