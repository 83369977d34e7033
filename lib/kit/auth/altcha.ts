/**
 * The self-hosted proof-of-work challenge (ALTCHA, `npm:altcha-lib` v2), used when Turnstile is not
 * configured, so `deno task start` on a fresh machine serves a protected form with no third-party
 * account. The widget's payload travels in the `turnstileToken` field like a Turnstile token.
 *
 * A payload is accepted once: its challenge signature is remembered in KV until the challenge
 * expires, so a solved challenge cannot be replayed.
 */
import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";
import { keptSecret, spendChallenge } from "../storage/store_secrets.ts";
import { ALTCHA_TTL_MS } from "./challenge_ttl.ts";
import { ALTCHA_HARD_FACTOR } from "./login_guard.ts";

/**
 * How hard a challenge is: PBKDF2-SHA-256 iterations per attempt, with a "00" key prefix (~256
 * attempts on average). PBKDF2 runs natively in the browser's SubtleCrypto, one call per attempt,
 * so this is ~0.3 s for a person (the iterated "SHA-256" algorithm awaits every single hash and
 * took 3-16 s in a browser for a fifth of the work).
 */
export const ALTCHA_COST = 5000;
export { ALTCHA_TTL_MS };

const PayloadSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.literal("PBKDF2/SHA-256"),
      nonce: z.string().max(128),
      salt: z.string().max(128),
      cost: z.number().int().min(1).max(1_000_000),
      keyLength: z.number().int().min(8).max(64),
      keyPrefix: z.string().max(64),
      data: z.object({ expires: z.number().int().positive() }).passthrough(),
    }).passthrough(),
    signature: z.string().min(16).max(256),
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(256) })
    .passthrough(),
});

/** Issues and verifies ALTCHA challenges signed with a secret shared by every process of a store. */
export class Altcha {
  constructor(
    private readonly kv: Deno.Kv,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
    /** Iterations per attempt; tests that solve in Deno lower it. */
    private readonly cost: number = ALTCHA_COST,
  ) {}

  /**
   * A new challenge for the widget (served as JSON at GET /api/challenge); `hard`: one
   * {@link ALTCHA_HARD_FACTOR} times the work (GET /api/challenge?level=hard), which a sign-in
   * past its failure limits needs (lib/kit/auth/login_guard.ts).
   */
  async challenge(options: { hard?: boolean } = {}): Promise<unknown> {
    return await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: options.hard ? this.cost * ALTCHA_HARD_FACTOR : this.cost,
      keyPrefix: "00",
      deriveKey,
      hmacSignatureSecret: this.secret,
      // The expiry is signed as data and checked against this class's clock. The library's own
      // `expiresAt` would be checked against the real clock, so an injected clock (tests, a
      // replayed log) and the library could disagree about whether a challenge is still valid.
      data: { expires: this.now() + ALTCHA_TTL_MS },
    });
  }

  /**
   * Verifies a widget payload (base64 JSON of `{challenge, solution}`) exactly once; `hard`: only
   * a solved hard challenge passes (its cost is signed with it).
   */
  async verify(token: string, options: { hard?: boolean } = {}): Promise<boolean> {
    if (!token || token.length > 8192) return false;
    let payload;
    try {
      payload = PayloadSchema.parse(JSON.parse(atob(token)));
    } catch {
      return false;
    }
    if (payload.challenge.parameters.data.expires < this.now()) return false;
    if (options.hard && payload.challenge.parameters.cost < this.cost * ALTCHA_HARD_FACTOR) {
      return false;
    }
    let result;
    try {
      result = await verifySolution({
        challenge: payload.challenge as Parameters<typeof verifySolution>[0]["challenge"],
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.secret,
      });
    } catch {
      return false;
    }
    if (!result.verified) return false;
    // Spend it: the first commit wins, any replay finds the key taken.
    return await spendChallenge(this.kv, payload.challenge.signature, ALTCHA_TTL_MS + 60_000);
  }
}

/**
 * A secret generated once and kept in KV, so every process sharing the store (and every restart)
 * signs and verifies with the same one. An explicit value (from the environment) wins.
 */
export async function sharedSecret(kv: Deno.Kv, name: string, explicit?: string): Promise<string> {
  if (explicit) return explicit;
  return await keptSecret(
    kv,
    name,
    () =>
      [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0"))
        .join(""),
  );
}
