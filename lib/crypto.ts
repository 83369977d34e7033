/** Small cryptographic helpers: hashing secrets for storage, random tokens, constant-time compare. */
import { timingSafeEqual } from "node:crypto";

/** Lowercase hex SHA-256 of a string (how keys and session tokens are stored). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A URL-safe random token of `bytes` random bytes (base64url, no padding). */
export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/**
 * Compares two secrets in time that does not depend on where they differ or on their lengths:
 * both are hashed first, so the comparison always runs over 32 bytes.
 */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([digest(a), digest(b)]);
  return timingSafeEqual(ha, hb);
}

async function digest(s: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
}
