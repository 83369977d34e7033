/**
 * Webhook signatures, as the Standard Webhooks specification defines them
 * (https://www.standardwebhooks.com/, checked 2026-11-26), so a receiver can verify a delivery with
 * the few lines in docs/watch.md or with any Standard Webhooks library:
 *
 *   webhook-id:        the delivery's id (the same on every retry: receivers de-duplicate by it)
 *   webhook-timestamp: when this attempt was sent, in whole Unix seconds
 *   webhook-signature: "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>"))
 *
 * where the key is the base64 after the secret's "whsec_" prefix. The timestamp is signed, so an
 * old delivery replayed later fails a receiver that allows 5 minutes of clock difference.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The headers a signed delivery carries. */
export const SIGNATURE_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

/** How far a receiver should let a timestamp be from its own clock (the spec's suggestion). */
export const TIMESTAMP_TOLERANCE_S = 5 * 60;

/** A new signing secret: "whsec_" + 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith("whsec_")) throw new Error("a signing secret starts with whsec_");
  return Buffer.from(secret.slice(6), "base64");
}

/** The `webhook-signature` value of one attempt. */
export function sign(secret: string, id: string, timestampS: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestampS}.${body}`).digest();
  return `v1,${mac.toString("base64")}`;
}

/** The three headers of one attempt. */
export function signatureHeaders(
  secret: string,
  id: string,
  timestampS: number,
  body: string,
): Record<string, string> {
  return {
    [SIGNATURE_HEADERS.id]: id,
    [SIGNATURE_HEADERS.timestamp]: String(timestampS),
    [SIGNATURE_HEADERS.signature]: sign(secret, id, timestampS, body),
  };
}

/**
 * What a receiver does: true when one of the signatures matches (compared in constant time) and
 * the timestamp is within the tolerance of `nowS`.
 */
export function verify(
  secret: string,
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  nowS: number,
  toleranceS = TIMESTAMP_TOLERANCE_S,
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowS - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(sign(secret, id, Number(timestamp), body).slice(3), "base64");
  return signature.split(" ").some((part) => {
    if (!part.startsWith("v1,")) return false;
    const given = Buffer.from(part.slice(3), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
