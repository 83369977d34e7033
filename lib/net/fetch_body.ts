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
  #rejectAborted: (reason: FetchError) => void = () => {};
  reason = "";
  /**
   * Rejects when the deadline passes. Raced against every await on undici: on Deno a pending
   * body read is not always rejected when the fetch is aborted, and would hang forever.
   */
  readonly whenAborted: Promise<never> = new Promise<never>((_, reject) => {
    this.#rejectAborted = reject;
  });

  constructor(timeoutMs: number, caller?: AbortSignal) {
    this.whenAborted.catch(() => {}); // handled by whoever races it
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
    this.#rejectAborted(error);
  }
}

/**
 * Reads at most maxBytes of the (decompressed) body, then cancels the rest of the stream. Chunks
 * are copied into one buffer as they arrive (grown by doubling, never past maxBytes), so the
 * memory held is the body itself however small the chunks: a body sent one byte at a time used
 * to keep one typed array (~100 bytes of overhead) per byte.
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
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline.whenAborted]);
      if (done) break;
      if (!body.append(value)) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    throw toFetchError(error, url, deadline);
  } finally {
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
