/** Reading request bodies safely: size-capped while streaming, JSON only, clear errors. */
import type { z } from "zod";
import {
  BadRequestError,
  PayloadTooLargeError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
} from "./errors.ts";

/** How long a request body may take to arrive. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * Reads a JSON body of at most `maxBytes`, counting bytes as they stream in (a lying or missing
 * Content-Length cannot make us buffer more).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new UnsupportedMediaTypeError();
  }
  const bytes = await readCappedBody(request, maxBytes);
  if (!bytes) throw new BadRequestError("Request body is empty; send a JSON object");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BadRequestError("Request body is not valid UTF-8");
  }
  if (!text.trim()) throw new BadRequestError("Request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError("Request body is not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new BadRequestError("Request body must be a JSON object");
  }
  return value;
}

/**
 * The body's bytes, at most `maxBytes`, counted as they stream in (a lying or missing
 * Content-Length cannot make us buffer more); null when there is no body.
 * @throws PayloadTooLargeError (413).
 */
export async function readCappedBody(
  request: Request,
  maxBytes: number,
  timeoutMs = BODY_TIMEOUT_MS,
): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  if (!request.body) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A client that announces a body and sends it a byte at a time must not hold a request open.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(timeoutMs / 1000)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new PayloadTooLargeError(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return bytes;
}

/** One readable sentence from a zod error: the first problem of each field. */
export function zodMessage(error: z.ZodError): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.join(".");
    if (seen.has(path)) continue;
    seen.add(path);
    parts.push(issue.message);
  }
  return parts.join("; ") || "Invalid request body";
}
