/**
 * A connection guard in front of `Deno.serve`, which has no setting for any of this (Deno 2.9:
 * no header timeout, no connection limit, no connection hook, and an accept error such as EMFILE
 * ends its accept loop for good). The guard owns the public listener and passes each accepted
 * connection's bytes, unchanged, to the HTTP server listening on a loopback port:
 *
 * - **Caps**: at most `maxConnections` open connections in total and `maxPerAddress` per client
 *   address (an IPv6 /64 counts as one); beyond them a connection gets a short `503` (JSON, `Retry-After`,
 *   `Connection: close`) and is closed at once.
 * - **Header read timeout**: a request head (request line and headers) must be complete within
 *   `headerTimeoutMs` of its first byte (of the connection, for the first request); otherwise the
 *   client gets `408` and the connection is closed. Slow bodies are the app's (lib/kit/web/http_body.ts:
 *   408 with `Connection: close`, which the HTTP server honours, and the guard then closes the
 *   client's side).
 * - **Idle keep-alive connections** are closed after `idleTimeoutMs` without a request.
 * - **EMFILE / ENFILE** on accept or on the upstream connection: the guard waits a moment and goes
 *   on (the pending connection stays in the kernel's queue or gets a 503), never dies.
 *
 * The client's address travels by the upstream connection's local port: {@link ConnGuard.clientOf}
 * maps the port the HTTP server sees as remote back to the client's address.
 *
 * Costs: one extra loopback connection per client connection (opened once its first request head
 * is complete: an idle or slowloris connection costs one descriptor and the bytes it sent), and
 * one copy of every byte through JavaScript. lib/app/serve.ts puts the guard only in front of a bind
 * other than loopback; docs/connections.md has the figures.
 */
import {
  HEAD_TOO_LARGE,
  HEADER_TIMEOUT,
  MAX_HEAD_BYTES,
  REFUSED_ADDRESS,
  REFUSED_TOTAL,
} from "./guard_answers.ts";
import { closingLength } from "./response_head.ts";
import { addressKey } from "./conn_limits.ts";
import { isDescriptorExhaustion } from "./fd_limit.ts";

/**
 * Read buffers start small and grow when a read fills them: an idle or slowloris connection holds
 * 1 KiB (and 4 KiB for its upstream once it has sent a request), not 16 KiB, however many there
 * are; at their largest, 16 KiB each (lib/kit/net/conn_limits.ts counts them).
 */
const FIRST_READ = 1024;
const FIRST_UPSTREAM_READ = 4 * 1024;
const READ = 16 * 1024;
const UPSTREAM_READ = 16 * 1024;

type Phase = "head" | "request" | "idle";

/** What the guard keeps per connection. */
interface Tracked {
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
  /** The client's address as counted (an IPv6 /64 is one: lib/kit/net/conn_limits.ts addressKey). */
  address: string;
}

/** Options of {@link startConnGuard}. */
export interface ConnGuardOptions {
  /** Where clients connect. */
  hostname: string;
  port: number;
  /** The HTTP server the bytes go to (a loopback listener of this process). */
  upstream: { hostname: string; port: number };
  /** Open connections at most, in total. */
  maxConnections: number;
  /**
   * Open connections at most per client address, an IPv6 /64 counting as one address (0: no
   * per-address cap, e.g. behind a proxy).
   */
  maxPerAddress: number;
  /** A request head must be complete this long after its first byte. */
  headerTimeoutMs: number;
  /** A keep-alive connection with no request for this long is closed. */
  idleTimeoutMs: number;
  /** Structured log lines (refusals are counted and logged at most once a second). */
  log?: (entry: Record<string, unknown>) => void;
  /** Milliseconds; tests inject a clock. */
  now?: () => number;
  /** How often deadlines are checked (they fire up to this late). */
  sweepMs?: number;
}

/** Counters of a running guard. */
export interface ConnGuardStats {
  open: number;
  refusedTotal: number;
  refusedPerAddress: number;
  headerTimeouts: number;
  idleClosed: number;
  acceptErrors: number;
}

/** A running guard. */
export interface ConnGuard {
  /** The public address it listens on. */
  addr: Deno.NetAddr;
  /**
   * The client address of an upstream connection, from the address the HTTP server sees it come
   * from (its remoteAddr); undefined for a connection the guard did not open.
   */
  clientOf(upstream: Deno.NetAddr): Deno.NetAddr | undefined;
  stats(): ConnGuardStats;
  /** Points new upstream connections at another port (the HTTP server was restarted). */
  setUpstreamPort(port: number): void;
  /** Stops accepting and closes every connection. */
  close(): Promise<void>;
}

/** Starts the guard on `hostname:port`. */
export function startConnGuard(options: ConnGuardOptions): ConnGuard {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const conns = new Set<Tracked>();
  const perAddress = new Map<string, number>();
  const clients = new Map<number, Deno.NetAddr>();
  let upstream = { ...options.upstream };
  // The address the guard's upstream sockets come from (loopback): with the port, it tells the
  // guard's connections from any other local process's.
  let upstreamLocalHost = options.upstream.hostname;
  const stats: ConnGuardStats = {
    open: 0,
    refusedTotal: 0,
    refusedPerAddress: 0,
    headerTimeouts: 0,
    idleClosed: 0,
    acceptErrors: 0,
  };
  let closing = false;
  let lastRefusalLog = 0;
  let lastErrorLog = 0;

  const close = (t: Tracked) => {
    if (t.closed) return;
    t.closed = true;
    conns.delete(t);
    stats.open--;
    const left = (perAddress.get(t.address) ?? 1) - 1;
    if (left > 0) perAddress.set(t.address, left);
    else perAddress.delete(t.address);
    try {
      t.conn.close();
    } catch { /* closed already */ }
    if (t.upstream) {
      clients.delete((t.upstream.localAddr as Deno.NetAddr).port);
      try {
        t.upstream.close();
      } catch { /* closed already */ }
    }
  };

  /** Writes a final answer (best effort, never waiting on a client that does not read). */
  const answerAndClose = (t: Tracked, bytes: Uint8Array) => {
    t.conn.write(bytes).catch(() => {}).finally(() => close(t));
    // A client that does not read cannot hold the connection open through our write.
    setTimeout(() => close(t), 1000);
  };

  const sweep = () => {
    const t0 = now();
    for (const t of conns) {
      if (t.phase === "request" || t.deadline > t0) continue;
      if (t.phase === "head" && t.headBegun) {
        stats.headerTimeouts++;
        answerAndClose(t, HEADER_TIMEOUT(Math.round(options.headerTimeoutMs / 1000)));
      } else {
        if (t.phase === "head") stats.headerTimeouts++;
        else stats.idleClosed++;
        close(t);
      }
      // Out of the sweep's way at once; close() may be delayed by the final write.
      conns.delete(t);
    }
  };
  const sweeper = setInterval(sweep, options.sweepMs ?? 250);

  /** Scans bytes of a head for its end (CRLFCRLF); returns true when found. */
  const headEnds = (t: Tracked, bytes: Uint8Array): boolean => {
    let tail = t.tail;
    for (let i = 0; i < bytes.length; i++) {
      tail = ((tail << 8) | bytes[i]) >>> 0;
      if (tail === 0x0d0a0d0a) {
        t.tail = 0;
        return true;
      }
    }
    t.tail = tail;
    return false;
  };

  const writeAll = async (conn: Deno.Conn, bytes: Uint8Array) => {
    let off = 0;
    while (off < bytes.length) off += await conn.write(bytes.subarray(off));
  };

  /** Upstream to client: every response byte, and the phase moves from request to idle. */
  const pumpBack = async (t: Tracked, upstream: Deno.Conn) => {
    let buf = new Uint8Array(FIRST_UPSTREAM_READ);
    try {
      for (;;) {
        if (t.closed) break;
        const n = await upstream.read(buf);
        if (n === null) break;
        let closeAfter = -1;
        if (t.phase === "request") {
          t.phase = "idle";
          t.headBegun = false;
          closeAfter = closingLength(buf, n);
        }
        if (t.phase === "idle") t.deadline = now() + options.idleTimeoutMs;
        await writeAll(t.conn, buf.subarray(0, n));
        if (n === buf.length && buf.length < UPSTREAM_READ) buf = new Uint8Array(UPSTREAM_READ);
        // An answer with `Connection: close` (e.g. a 408 for a slow body) ends the connection
        // once it is sent, even if the HTTP server is still waiting for the rest of the body.
        if (closeAfter >= 0) {
          let left = closeAfter - n;
          while (left > 0) {
            const m = await upstream.read(buf);
            if (m === null) break;
            await writeAll(t.conn, buf.subarray(0, m));
            left -= m;
          }
          break;
        }
      }
    } catch { /* either side went away */ }
    // The HTTP server closed (e.g. after a 408 or a `Connection: close`): so does the client.
    close(t);
  };

  const serve = async (t: Tracked) => {
    let buf = new Uint8Array(FIRST_READ);
    const pending: Uint8Array[] = [];
    let held = 0;
    try {
      for (;;) {
        const n = await t.conn.read(buf);
        if (n === null || t.closed) break;
        const bytes = buf.subarray(0, n);
        if (t.phase === "idle") {
          t.phase = "head";
          t.deadline = now() + options.headerTimeoutMs;
        }
        if (t.phase === "head") {
          t.headBegun = true;
          if (headEnds(t, bytes)) t.phase = "request";
        }
        if (!t.upstream && t.phase === "head") {
          // The first head is held here until it is complete: a slowloris connection never
          // reaches the HTTP server, and costs only these bytes and its socket.
          held += n;
          if (held > MAX_HEAD_BYTES) {
            answerAndClose(t, HEAD_TOO_LARGE);
            return;
          }
          pending.push(bytes.slice());
          continue;
        }
        if (!t.upstream) {
          try {
            t.upstream = await Deno.connect(upstream);
          } catch (error) {
            noteError("upstream", error);
            answerAndClose(t, REFUSED_TOTAL);
            return;
          }
          if (t.closed) {
            t.upstream.close();
            return;
          }
          // Bytes are passed on as they come: Nagle's delay would add up to 40 ms per answer.
          (t.upstream as Deno.TcpConn).setNoDelay(true);
          (t.conn as Deno.TcpConn).setNoDelay(true);
          const local = t.upstream.localAddr as Deno.NetAddr;
          upstreamLocalHost = local.hostname;
          clients.set(local.port, t.conn.remoteAddr as Deno.NetAddr);
          pumpBack(t, t.upstream);
        }
        if (pending.length) {
          for (const p of pending) await writeAll(t.upstream, p);
          pending.length = 0;
        }
        await writeAll(t.upstream, bytes);
        if (n === buf.length && buf.length < READ) buf = new Uint8Array(READ);
      }
    } catch { /* either side went away */ }
    // The client finished sending: let the HTTP server answer what it has, then both close.
    if (t.upstream && !t.closed) {
      try {
        await t.upstream.closeWrite();
      } catch {
        close(t);
      }
    } else close(t);
  };

  const noteError = (where: string, error: unknown) => {
    stats.acceptErrors++;
    const t0 = now();
    if (t0 - lastErrorLog >= 1000) {
      lastErrorLog = t0;
      log({
        event: "conn.error",
        where,
        fdExhausted: isDescriptorExhaustion(error),
        error: error instanceof Error ? error.message : String(error),
        open: stats.open,
      });
    }
  };

  const refuse = (conn: Deno.Conn, answer: Uint8Array, kind: "total" | "address") => {
    if (kind === "total") stats.refusedTotal++;
    else stats.refusedPerAddress++;
    const t0 = now();
    if (t0 - lastRefusalLog >= 1000) {
      lastRefusalLog = t0;
      log({ event: "conn.refused", kind, ...stats });
    }
    conn.write(answer).catch(() => {}).finally(() => {
      try {
        conn.close();
      } catch { /* closed already */ }
    });
  };

  const acceptLoop = async () => {
    while (!closing) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (closing || error instanceof Deno.errors.BadResource) break;
        noteError("accept", error);
        // Out of descriptors: existing connections go on being served; new ones wait in the
        // kernel's queue until some close.
        await new Promise((r) => setTimeout(r, isDescriptorExhaustion(error) ? 100 : 10));
        continue;
      }
      const address = addressKey((conn.remoteAddr as Deno.NetAddr).hostname);
      if (stats.open >= options.maxConnections) {
        refuse(conn, REFUSED_TOTAL, "total");
        continue;
      }
      const mine = perAddress.get(address) ?? 0;
      if (options.maxPerAddress > 0 && mine >= options.maxPerAddress) {
        refuse(conn, REFUSED_ADDRESS, "address");
        continue;
      }
      perAddress.set(address, mine + 1);
      stats.open++;
      const t: Tracked = {
        conn,
        phase: "head",
        deadline: now() + options.headerTimeoutMs,
        headBegun: false,
        tail: 0,
        upstream: null,
        closed: false,
        address,
      };
      conns.add(t);
      serve(t);
    }
  };
  const loop = acceptLoop();

  return {
    addr: listener.addr as Deno.NetAddr,
    clientOf: (addr) => addr.hostname === upstreamLocalHost ? clients.get(addr.port) : undefined,
    stats: () => ({ ...stats }),
    setUpstreamPort: (port) => {
      upstream = { ...upstream, port };
    },
    async close() {
      closing = true;
      clearInterval(sweeper);
      try {
        listener.close();
      } catch { /* closed already */ }
      for (const t of [...conns]) close(t);
      await loop;
    },
  };
}
