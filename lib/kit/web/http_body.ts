/** Reading request bodies safely: size-capped while streaming, JSON only, clear errors. */
import { BodyBuffer } from "../net/fetch_body.ts";
import type { z } from "zod";
import {
  BadRequestError,
  HttpError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
} from "../errors.ts";

/** Decodes a whole body as UTF-8, throwing on invalid bytes (one decoder: each call is whole). */
export const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** How long a request body may take to arrive. */
export const BODY_TIMEOUT_MS = 10_000;

/** A body capped above this counts against the budget of bodies being read at once. */
const LARGE_BODY = 64 * 1024;
/** Bytes of large bodies that may be read at once (the memory plan's: main.ts sets it). */
let bodyBudget = 64 * 1048576;
let bodiesReading = 0;

/**
 * Sets how many bytes of large request bodies (capped above 64 KiB: code to validate) this process
 * reads at once; past it a request gets 429 before its body is read (lib/kit/config_memory.ts).
 */
export function setBodyBudget(bytes: number): void {
  bodyBudget = bytes;
}

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
    text = strictUtf8.decode(bytes);
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
  const length = request.headers.get("content-length");
  const declared = length === null ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const whole = Number.isInteger(declared) && declared >= 0;
  // `request.body` is not touched on the whole-body path: it would build a stream to read from.
  if (!whole && !request.body) return null;
  // Many large bodies arriving at once (slowly, each up to its cap) must not add up past the
  // memory plan: what a body may become is reserved before a byte of it is read.
  const reserved = maxBytes > LARGE_BODY ? (whole ? declared : maxBytes) : 0;
  if (reserved && bodiesReading + reserved > bodyBudget) {
    throw new RateLimitedError(
      "The server is receiving too many large requests at once; retry in 5 seconds.",
      5,
    );
  }
  bodiesReading += reserved;
  // A client that announces a body and sends it a byte at a time must not hold a request open.
  const deadline = bodyDeadline(timeoutMs);
  try {
    if (whole) {
      // The server frames the body by its Content-Length, so it cannot grow past what was
      // declared: read it whole, far cheaper than a stream reader (the size is checked anyway,
      // for requests built in process).
      const bytes = new Uint8Array(
        await Promise.race([request.arrayBuffer().catch(incomplete), deadline.expired]),
      );
      if (bytes.byteLength > maxBytes) throw new PayloadTooLargeError(maxBytes);
      return bytes.byteLength ? bytes : null;
    }
    return await readChunked(request.body!, maxBytes, deadline.expired);
  } finally {
    deadline.clear();
    bodiesReading -= reserved;
  }
}

/** A body that cannot be read whole: the client closed the connection before sending it all. */
function incomplete(error: unknown): never {
  if (error instanceof HttpError) throw error;
  throw new BadRequestError("Request body ended before it was complete");
}

/**
 * Most chunks a body without Content-Length may come in: one per 64 bytes of its cap, at least
 * 1024 (a 2 MiB body: 32,768). Clients send chunks of kilobytes (a browser's or curl's stream,
 * a pipe); only a body meant to cost the server sends them a byte at a time, and each chunk is a
 * read on the server's thread (about 4 µs).
 */
export function maxChunks(maxBytes: number): number {
  return Math.max(1024, Math.floor(maxBytes / 64));
}

/** The room a chunked body is read into, a read at a time (a chunk larger than it takes more). */
const READ_BYTES = 64 * 1024;

/**
 * A body without Content-Length, read as it streams into one buffer (grown by doubling, never past
 * `maxBytes`), each read waiting on the stream alone (the deadline cancels it), at most
 * {@link maxChunks} reads (400 past it), so a body costs its size however it is chunked, and a
 * read error (a connection cut, bad framing) is a 400.
 *
 * The reads are BYOB (into one buffer of ours) where the stream allows it, as Deno.serve's request
 * bodies do. With Deno 2.9.6's default reader, each chunk of a request body costs about 300 bytes
 * outside the JS heap that a collection does not give back while the body is read (eight 64 KiB
 * bodies in 1-byte chunks took the start task's server from 162 to 325 MB), and reads take three
 * times as long; a BYOB read costs nothing per chunk. Streams built in process (tests) may not be
 * byte streams: they are read with the default reader.
 */
async function readChunked(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  expired: Promise<never>,
): Promise<Uint8Array | null> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch { /* not a byte stream */ }
  const reader = byob ?? body.getReader();
  const buffer = new BodyBuffer(maxBytes);
  const limit = maxChunks(maxBytes);
  let room = new Uint8Array(byob ? READ_BYTES : 0);
  let chunks = 0;
  let timedOut: unknown = null;
  expired.catch((error) => {
    timedOut = error;
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = byob ? await byob.read(room) : await (reader as ReadableStreamDefaultReader<
          Uint8Array
        >).read();
      } catch (error) {
        // The connection broke or the client's framing was wrong (Deno: "invalid HTTP/1
        // request"): the client's doing, a 400, never a 500.
        if (timedOut) throw timedOut;
        if (error instanceof HttpError) throw error;
        throw new BadRequestError("Request body could not be read: it ended or was malformed");
      }
      if (timedOut) throw timedOut;
      const { done, value } = result;
      if (done) break;
      if (++chunks > limit) {
        throw new BadRequestError(
          `Request body came in more than ${limit} chunks; send it with a Content-Length, or in ` +
            "larger chunks",
        );
      }
      if (!buffer.append(value)) throw new PayloadTooLargeError(maxBytes);
      // A BYOB read hands back our buffer (moved): the next read reuses it.
      if (byob) room = new Uint8Array(value.buffer as ArrayBuffer);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  return buffer.size ? buffer.bytes() : null;
}

/**
 * Body deadlines share one coarse timer instead of a timer each (a timer per request was a
 * measurable share of a cache-hit POST). It ticks every 100 ms while any body is being read, so a
 * deadline fires up to 100 ms late.
 */
const waiting = new Set<{ at: number; fire: () => void }>();
let sweeper: ReturnType<typeof setInterval> | undefined;
const SWEEP_MS = 100;

function bodyDeadline(timeoutMs: number): { expired: Promise<never>; clear(): void } {
  let fire!: () => void;
  const expired = new Promise<never>((_, reject) => {
    fire = () => reject(new RequestTimeoutError(timeoutMs / 1000));
  });
  const waiter = { at: Date.now() + timeoutMs, fire };
  waiting.add(waiter);
  if (sweeper === undefined) {
    sweeper = setInterval(sweep, SWEEP_MS);
  }
  return { expired, clear: () => waiting.delete(waiter) };
}

function sweep(): void {
  const now = Date.now();
  for (const w of waiting) {
    if (w.at <= now) {
      waiting.delete(w);
      w.fire();
    }
  }
  if (!waiting.size) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
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
