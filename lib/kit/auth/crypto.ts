/** Small cryptographic helpers: hashing secrets for storage, random tokens, constant-time compare. */
import { createHash, timingSafeEqual } from "node:crypto";
import { charsOf, trimEnd } from "../text/trim.ts";

/**
 * Lowercase hex SHA-256 of a string (how keys and session tokens are stored). Synchronous
 * node:crypto: on the request path it is several times cheaper than an async WebCrypto call.
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The SHA-256 of a string: its raw digest and that digest in lowercase hex. */
export function sha256Digest(text: string): { bytes: Uint8Array; hex: string } {
  const bytes = createHash("sha256").update(text).digest();
  return { bytes, hex: bytes.toString("hex") };
}

/** Compares two 32-byte digests in constant time. */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return timingSafeEqual(a, b);
}

/** A URL-safe random token of `bytes` random bytes (base64url, no padding). */
export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return trimEnd(
    btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_"),
    charsOf("="),
  );
}

/**
 * Compares two secrets in time that does not depend on where they differ or on their lengths:
 * both are hashed first, so the comparison always runs over 32 bytes.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return digestsEqual(sha256Digest(a).bytes, sha256Digest(b).bytes);
}
