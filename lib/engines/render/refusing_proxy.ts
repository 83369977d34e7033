/**
 * The proxy a local Chromium is told to use for everything (`--proxy-server`, loopback included):
 * it answers every connection with 403 and closes it, so the browser process itself can reach
 * nothing. Requests the renderer serves (lib/engines/render/request_gate.ts) never get here; whatever
 * would have left the browser another way (a WebSocket, a preconnect, Chromium's own background
 * traffic) arrives here and is refused and counted.
 */

/** A running refusing proxy. */
export interface RefusingProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server`. */
  readonly url: string;
  /** First lines of the requests refused so far (capped), e.g. "CONNECT host:443 HTTP/1.1". */
  readonly refused: readonly string[];
  /** Connections refused so far. */
  count(): number;
  close(): Promise<void>;
}

const MAX_KEPT = 50;
const HEAD_BYTES = 1024;
const READ_MS = 1000;
const ANSWER = new TextEncoder().encode(
  "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
);

/** Starts the proxy on a free loopback port. */
export function startRefusingProxy(): RefusingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const refused: string[] = [];
  let count = 0;
  const open = new Set<Deno.Conn>();
  const handle = async (conn: Deno.Conn) => {
    open.add(conn);
    count++;
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const n = await Promise.race([
        conn.read(buffer).catch(() => null),
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), READ_MS)),
      ]);
      clearTimeout(timer);
      const line = new TextDecoder().decode(buffer.subarray(0, n ?? 0)).split("\r\n")[0];
      if (refused.length < MAX_KEPT) refused.push(line.slice(0, 200) || "(no request line)");
      await conn.write(ANSWER).catch(() => {});
    } finally {
      open.delete(conn);
      try {
        conn.close();
      } catch { /* closed by the peer */ }
    }
  };
  const loop = (async () => {
    for await (const conn of listener) handle(conn).catch(() => {});
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    count: () => count,
    async close() {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await loop;
    },
  };
}
