/**
 * The guarded fetcher's (guarded_fetch.ts) per-request parts: the deadline that combines the
 * request's time budget with the caller's signal, the capped body reader, and the mapping of
 * whatever undici, node:net or node:tls threw to a FetchError.
 * @module
 */
import { FetchError } from "./types.ts";
import { errorText } from "./resolve.ts";

/** One request's time budget combined with the caller's signal. */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #caller?: AbortSignal;
  readonly #onCallerAbort = () => this.#abort("Request aborted by the caller");
  reason = "";

  constructor(timeoutMs: number, caller?: AbortSignal) {
    // A plain timer (not AbortSignal.timeout) so dispose() can clear it and leave nothing behind.
    this.#timer = setTimeout(() => this.#abort(`Timed out after ${timeoutMs} ms`), timeoutMs);
    this.#caller = caller;
    if (caller?.aborted) this.#onCallerAbort();
    else caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * `pending`, or a rejection with the deadline's FetchError as soon as the deadline passes,
   * whichever comes first. The request's await on undici goes through it: on Deno a pending fetch
   * is not always rejected when it is aborted, and would hang forever.
   *
   * Why not `Promise.race([pending, aborted])` with one long-lived `aborted` promise: each race
   * adds a reaction to that promise, kept until it settles, which it never does while the body
   * flows. Raced per body read, a body in 1-byte chunks (chunked encoding allows it: 7 bytes on
   * the wire per byte) held one reaction per byte: 0.5 MiB exhausted a 160 MB heap. Here the
   * listener is removed when `pending` settles.
   */
  race<T>(pending: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    if (signal.aborted) {
      pending.catch(() => {});
      return Promise.reject(signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  throwIfAborted(url: string): void {
    if (this.aborted) throw new FetchError("timeout", this.reason, url);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  #abort(reason: string): void {
    if (this.aborted) return;
    this.reason = reason;
    const error = new FetchError("timeout", reason, "");
    this.#controller.abort(error);
  }
}

/**
 * Reads at most maxBytes of the (decompressed) body, then cancels the rest of the stream. Chunks
 * are copied into one buffer as they arrive (grown by doubling, never past maxBytes), and reads
 * wait on nothing but the stream (the deadline cancels it), so the memory held is the body itself however small the chunks: a 5 MB body in 1-byte chunks costs
 * 5 MB (tests/guarded_fetch_test.ts, "1-byte chunked encoding").
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  url: string,
  deadline: Deadline,
): Promise<{ data: Uint8Array; truncated: boolean }> {
  if (!response.body) return { data: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const body = new BodyBuffer(maxBytes);
  let truncated = false;
  // At the deadline the stream is cancelled, which settles a pending read at once (done): reads
  // need no race of their own, so a body of a million 1-byte chunks costs a million plain reads.
  const stop = () => reader.cancel(deadline.reason).catch(() => {});
  deadline.signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      deadline.throwIfAborted(url);
      if (done) break;
      if (!body.append(value)) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    throw toFetchError(error, url, deadline);
  } finally {
    deadline.signal.removeEventListener("abort", stop);
    // Cancelling stops decompression and drops the connection instead of draining a bomb.
    if (truncated || deadline.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return { data: body.bytes(), truncated };
}

/** A byte buffer capped at `max` bytes that grows by doubling. */
export class BodyBuffer {
  #data = new Uint8Array(0);
  #size = 0;
  constructor(private readonly max: number) {}

  /** Bytes held so far. */
  get size(): number {
    return this.#size;
  }

  /** Appends what fits; false when `chunk` did not fit whole (the rest is dropped). */
  append(chunk: Uint8Array): boolean {
    const room = this.max - this.#size;
    const take = Math.min(chunk.byteLength, Math.max(room, 0));
    if (this.#size + take > this.#data.byteLength) {
      const next = new Uint8Array(
        Math.min(this.max, Math.max(this.#size + take, this.#data.byteLength * 2, 16 * 1024)),
      );
      next.set(this.#data.subarray(0, this.#size));
      this.#data = next;
    }
    this.#data.set(take === chunk.byteLength ? chunk : chunk.subarray(0, take), this.#size);
    this.#size += take;
    return take === chunk.byteLength;
  }

  /** The bytes held (a view of the buffer when it is full, else a copy of exactly `size`). */
  bytes(): Uint8Array {
    return this.#size === this.#data.byteLength ? this.#data : this.#data.slice(0, this.#size);
  }

  /** Empties it for reuse (a buffer grown past 64 KiB is let go). */
  clear(): void {
    this.#size = 0;
    if (this.#data.byteLength > 65_536) this.#data = new Uint8Array(0);
  }
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
]);

const NETWORK_MESSAGES: Record<string, string> = {
  UND_ERR_HEADERS_OVERFLOW: "response headers larger than 64 KiB (UND_ERR_HEADERS_OVERFLOW)",
  ECONNREFUSED: "connection refused (ECONNREFUSED)",
  ECONNRESET: "connection reset (ECONNRESET)",
  UND_ERR_SOCKET: "connection closed by the server (UND_ERR_SOCKET)",
};

/** Maps whatever undici, node:net or node:tls threw to a FetchError for `url`. */
export function toFetchError(error: unknown, url: string, deadline: Deadline): FetchError {
  // Our own errors (thrown in connect or used as abort reason) travel in `cause` chains.
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as Error).cause, depth++) {
    if (e instanceof FetchError) {
      if (e.kind === "timeout" && deadline.aborted) break;
      return new FetchError(e.kind, e.message, url);
    }
  }
  if (deadline.aborted) return new FetchError("timeout", deadline.reason, url);
  const codes: string[] = [];
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    messages.push(errorText(e));
  }
  if (codes.some((c) => TIMEOUT_CODES.has(c))) {
    return new FetchError("timeout", `Timed out (${codes.join(", ")})`, url);
  }
  const known = codes.map((c) => NETWORK_MESSAGES[c]).find(Boolean);
  const detail = known ?? (codes.length ? codes.join(", ") : messages.slice(-1)[0]);
  return new FetchError("network", `Request failed: ${detail}`, url);
}
