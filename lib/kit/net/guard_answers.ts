/**
 * The answers the connection guard (lib/kit/net/conn_guard.ts) writes itself before closing a
 * connection: 503 past a cap, 408 for a request head that did not arrive in time, 431 for one
 * larger than it holds. Each is a complete HTTP/1.1 response with a JSON body.
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
/**
 * The largest request head the guard holds while it arrives: Node's default (16 KiB), far above
 * what a browser sends to this service (one session cookie), and part of the memory one
 * connection may hold (lib/kit/net/conn_limits.ts).
 */
export const MAX_HEAD_BYTES = 16 * 1024;
export const HEAD_TOO_LARGE = closingAnswer("431 Request Header Fields Too Large", {
  error: "Request headers are larger than 16 KiB",
});
export const HEADER_TIMEOUT = (seconds: number) =>
  closingAnswer("408 Request Timeout", {
    error: `Request headers not received within ${seconds} seconds`,
  });
