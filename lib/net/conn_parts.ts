/**
 * The connection guard's (conn_guard.ts) fixed parts: the closing answers it writes itself (503,
 * 408, 431), its read-buffer sizes, the test of a response that closes its connection, the test
 * of descriptor exhaustion, and the record it keeps per connection.
 */

const enc = new TextEncoder();

/** A complete HTTP/1.1 answer that closes the connection. */
export function closingAnswer(status: string, body: object, extra = ""): Uint8Array {
  const json = JSON.stringify(body);
  return enc.encode(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\n` +
      `cache-control: no-store\r\nx-content-type-options: nosniff\r\n${extra}connection: close\r\n\r\n` +
      json,
  );
}

export const REFUSED_TOTAL = closingAnswer(
  "503 Service Unavailable",
  { error: "The server has too many open connections; please retry in a few seconds." },
  "retry-after: 5\r\n",
);
export const REFUSED_ADDRESS = closingAnswer(
  "503 Service Unavailable",
  {
    error: "Too many open connections from your address; close some and retry in a few seconds.",
  },
  "retry-after: 5\r\n",
);
/** The largest first request head the guard holds while it arrives (Deno.serve's own limit is
 * about as large). */
export const MAX_HEAD_BYTES = 64 * 1024;
export const HEAD_TOO_LARGE = closingAnswer("431 Request Header Fields Too Large", {
  error: "Request headers are larger than 64 KiB",
});
export const HEADER_TIMEOUT = (seconds: number) =>
  closingAnswer("408 Request Timeout", {
    error: `Request headers not received within ${seconds} seconds`,
  });

/**
 * Read buffers start small and grow when a read fills them: an idle or slowloris connection holds
 * 1 KiB (and 4 KiB for its upstream once it has sent a byte), not 32 KiB, however many there are.
 */
export const FIRST_READ = 1024;
export const FIRST_UPSTREAM_READ = 4 * 1024;
export const READ = 16 * 1024;
export const UPSTREAM_READ = 64 * 1024;

const latin1 = new TextDecoder("latin1");

/**
 * The whole length of a response that asks to close its connection (`Connection: close` and a
 * Content-Length, its head in the first `n` bytes of `buf`), or -1.
 */
export function closingLength(buf: Uint8Array, n: number): number {
  const text = latin1.decode(buf.subarray(0, Math.min(n, 8192)));
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return -1;
  const head = text.slice(0, end + 2);
  if (!/\r\nconnection:[ \t]*close[ \t]*\r\n/i.test(head)) return -1;
  const length = head.match(/\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i);
  return length ? end + 4 + Number(length[1]) : -1;
}

/** Too many open files (process or system): accepting must pause, not stop. */
export function isFdExhaustion(error: unknown): boolean {
  return error instanceof Error && /too many open files|EMFILE|ENFILE|os error 2[34]\b/i.test(
    error.message,
  );
}

export type Phase = "head" | "request" | "idle";

export interface Tracked {
  conn: Deno.Conn;
  phase: Phase;
  /** When the current phase's deadline passes (head: header timeout; idle: keep-alive). */
  deadline: number;
  /** The head has begun (a byte of it arrived): a timeout answers 408 rather than closing. */
  headBegun: boolean;
  /** The last three bytes of the head seen so far (a CRLFCRLF may span two reads). */
  tail: number;
  upstream: Deno.Conn | null;
  closed: boolean;
  /** The client's address (its slot in the per-address count). */
  address: string;
}
