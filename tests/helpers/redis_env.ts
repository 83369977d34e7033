/**
 * A real Redis for tests, reached the way production reaches Upstash:
 *
 *   @upstash/redis --HTTP (Upstash REST protocol)--> this file's proxy (Deno.serve, 127.0.0.1)
 *     --RESP over a Unix socket--> Debian's redis-server (no TCP port, no persistence)
 *
 * The proxy speaks the part of the Upstash REST API that `npm:@upstash/redis` uses: `POST /` with a
 * JSON command array, `POST /pipeline` and `POST /multi-exec` with an array of them, the bearer
 * token checked, and `Upstash-Encoding: base64` honoured (strings in results base64-encoded).
 * Single-command errors are HTTP 400 `{"error"}`; pipeline errors are per command.
 *
 * Tests that need it are skipped, loudly, only when redis-server is not installed (`.ci/run`
 * installs it: `apt-get install -y redis-server`).
 */

/** True when Debian's redis-server can be run here. */
export async function hasRedisServer(): Promise<boolean> {
  try {
    const out = await new Deno.Command("redis-server", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** Says loudly that a test file is skipped, and why. */
export function warnNoRedis(file: string): void {
  console.error(
    `\n!!! ${file}: redis-server is not installed, so the Redis limiter tests are SKIPPED.\n` +
      "!!! Install it with `apt-get install -y redis-server` (.ci/run does).\n",
  );
}

/** A Redis error reply. */
export class RespError extends Error {
  override name = "RespError";
}

/** One RESP2 reply: simple strings are tagged so the proxy can tell them from bulk strings. */
export type Reply =
  | { simple: string }
  | Uint8Array
  | number
  | null
  | RespError
  | Reply[];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A tiny pipelining RESP2 client over one connection: commands are answered in order. */
export class RespClient {
  #buf = new Uint8Array(0);
  #waiting: { count: number; replies: Reply[]; resolve: (r: Reply[]) => void }[] = [];
  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  readonly done: Promise<void>;

  private constructor(private readonly conn: Deno.Conn) {
    this.done = this.#read();
  }

  static async connect(path: string): Promise<RespClient> {
    return new RespClient(await Deno.connect({ transport: "unix", path }));
  }

  /** Sends commands back to back in one write and resolves with their replies, in order. */
  send(commands: (string | number)[][]): Promise<Reply[]> {
    if (this.#closed) return Promise.reject(new Error("connection closed"));
    const bytes = encodeCommands(commands);
    const result = new Promise<Reply[]>((resolve) => {
      this.#waiting.push({ count: commands.length, replies: [], resolve });
    });
    // Writes are chained so that two callers' commands never interleave on the wire.
    this.#writes = this.#writes.then(async () => {
      let off = 0;
      while (off < bytes.length) off += await this.conn.write(bytes.subarray(off));
    });
    return result;
  }

  async command(...args: (string | number)[]): Promise<Reply> {
    return (await this.send([args]))[0];
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  async #read(): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.conn.read(chunk);
        if (n === null) break;
        const next = new Uint8Array(this.#buf.length + n);
        next.set(this.#buf);
        next.set(chunk.subarray(0, n), this.#buf.length);
        this.#buf = next;
        let off = 0;
        for (;;) {
          const parsed = parseReply(this.#buf, off);
          if (!parsed) break;
          off = parsed.next;
          const head = this.#waiting[0];
          head.replies.push(parsed.value);
          if (head.replies.length === head.count) {
            this.#waiting.shift();
            head.resolve(head.replies);
          }
        }
        this.#buf = this.#buf.slice(off);
      }
    } catch {
      // Closed under us: pending callers get errors below.
    }
    this.#closed = true;
    for (const w of this.#waiting.splice(0)) {
      w.resolve([...w.replies, ...Array(w.count - w.replies.length).fill(new RespError("closed"))]);
    }
  }
}

function encodeCommands(commands: (string | number)[][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const cmd of commands) {
    parts.push(encoder.encode(`*${cmd.length}\r\n`));
    for (const arg of cmd) {
      const b = encoder.encode(String(arg));
      parts.push(encoder.encode(`$${b.length}\r\n`), b, encoder.encode("\r\n"));
    }
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function parseReply(buf: Uint8Array, off: number): { value: Reply; next: number } | null {
  const lineEnd = indexOfCrlf(buf, off);
  if (lineEnd < 0) return null;
  const type = String.fromCharCode(buf[off]);
  const line = decoder.decode(buf.subarray(off + 1, lineEnd));
  const after = lineEnd + 2;
  switch (type) {
    case "+":
      return { value: { simple: line }, next: after };
    case "-":
      return { value: new RespError(line), next: after };
    case ":":
      return { value: Number(line), next: after };
    case "$": {
      const len = Number(line);
      if (len < 0) return { value: null, next: after };
      if (buf.length < after + len + 2) return null;
      return { value: buf.slice(after, after + len), next: after + len + 2 };
    }
    case "*": {
      const len = Number(line);
      if (len < 0) return { value: null, next: after };
      const items: Reply[] = [];
      let next = after;
      for (let i = 0; i < len; i++) {
        const item = parseReply(buf, next);
        if (!item) return null;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`unexpected RESP type ${JSON.stringify(type)}`);
  }
}

function indexOfCrlf(buf: Uint8Array, from: number): number {
  for (let i = from; i < buf.length - 1; i++) if (buf[i] === 13 && buf[i + 1] === 10) return i;
  return -1;
}

/** A reply as the Upstash REST API returns it inside {"result": ...}. */
function toJson(reply: Reply, base64: boolean): unknown {
  if (reply === null || typeof reply === "number") return reply;
  if (reply instanceof RespError) throw reply;
  if (reply instanceof Uint8Array) return base64 ? toBase64(reply) : decoder.decode(reply);
  if (Array.isArray(reply)) {
    return reply.map((r) => r instanceof RespError ? { error: r.message } : toJson(r, base64));
  }
  // Upstash leaves "OK" as it is and encodes every other string.
  return base64 && reply.simple !== "OK" ? toBase64(encoder.encode(reply.simple)) : reply.simple;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function entry(reply: Reply, base64: boolean): { result: unknown } | { error: string } {
  if (reply instanceof RespError) return { error: reply.message };
  return { result: toJson(reply, base64) };
}

/** A running redis-server and its Upstash-compatible REST proxy. */
export interface RedisEnv {
  /** UPSTASH_REDIS_REST_URL of the proxy, e.g. http://127.0.0.1:43121 */
  url: string;
  /** UPSTASH_REDIS_REST_TOKEN the proxy accepts. */
  token: string;
  /** A direct RESP connection, for test set-up and inspection. */
  client: RespClient;
  /** Requests the proxy has answered, by path ("/", "/pipeline", "/multi-exec"). */
  requests: Record<string, number>;
  /** Makes the proxy answer 503 (true) or work again (false). */
  setDown(down: boolean): void;
  /** Deletes every key. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Starts redis-server (Unix socket only, no persistence) and the REST proxy on 127.0.0.1. */
export async function startRedisEnv(): Promise<RedisEnv> {
  const dir = await Deno.makeTempDir({ prefix: "redis-test-" });
  const socket = `${dir}/redis.sock`;
  const server = new Deno.Command("redis-server", {
    args: [
      "--port",
      "0",
      "--unixsocket",
      socket,
      "--unixsocketperm",
      "700",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--logfile",
      "",
    ],
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let client: RespClient | null = null;
  for (let i = 0; i < 200 && !client; i++) {
    try {
      client = await RespClient.connect(socket);
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  if (!client) {
    server.kill("SIGKILL");
    const out = await server.output().catch(() => null);
    throw new Error(`redis-server did not start: ${out ? decoder.decode(out.stderr) : ""}`);
  }
  const pong = await client.command("PING");
  if (!pong || (pong as { simple?: string }).simple !== "PONG") {
    throw new Error("redis-server did not answer PING");
  }
  const token = `test-token-${crypto.randomUUID()}`;
  const requests: Record<string, number> = {};
  let down = false;
  const redis = client;
  const proxy = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (req.headers.get("authorization") !== `Bearer ${token}`) {
        return Response.json({ error: "Unauthorized" }, { status: 401 });
      }
      if (down) return Response.json({ error: "Service Unavailable" }, { status: 503 });
      if (req.method !== "POST") return Response.json({ error: "POST only" }, { status: 405 });
      const base64 = req.headers.get("upstash-encoding")?.toLowerCase() === "base64";
      requests[path] = (requests[path] ?? 0) + 1;
      let body: unknown;
      try {
        body = await req.json();
      } catch {
        return Response.json({ error: "ERR body is not JSON" }, { status: 400 });
      }
      const isCommand = (c: unknown): c is (string | number)[] =>
        Array.isArray(c) && c.length > 0 &&
        c.every((a) => typeof a === "string" || typeof a === "number");
      if (path === "/") {
        if (!isCommand(body)) return Response.json({ error: "ERR bad command" }, { status: 400 });
        const [reply] = await redis.send([body]);
        const e = entry(reply, base64);
        return Response.json(e, { status: "error" in e ? 400 : 200 });
      }
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.length || !body.every(isCommand)) {
          return Response.json({ error: "ERR bad pipeline" }, { status: 400 });
        }
        if (path === "/pipeline") {
          const replies = await redis.send(body);
          return Response.json(replies.map((r) => entry(r, base64)));
        }
        const replies = await redis.send([["MULTI"], ...body, ["EXEC"]]);
        const exec = replies.at(-1)!;
        if (exec instanceof RespError || !Array.isArray(exec)) {
          const queued = replies.slice(1, -1).find((r) => r instanceof RespError);
          const message = (queued ?? exec) instanceof RespError
            ? ((queued ?? exec) as RespError).message
            : "EXECABORT Transaction discarded";
          return Response.json({ error: message }, { status: 400 });
        }
        return Response.json(exec.map((r) => entry(r, base64)));
      }
      return Response.json({ error: "Not found" }, { status: 404 });
    },
  );
  const addr = proxy.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    token,
    client: redis,
    requests,
    setDown: (d) => {
      down = d;
    },
    flush: async () => {
      await redis.command("FLUSHALL");
    },
    close: async () => {
      await proxy.shutdown();
      redis.close();
      await redis.done;
      server.kill("SIGTERM");
      await server.stderr.cancel();
      await server.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
