/**
 * Serving HTTP: `Deno.serve` behind the connection guard (lib/kit/net/conn_guard.ts) on a bind other
 * than loopback, or `Deno.serve` alone: on a loopback bind (only this machine can connect, e.g. a
 * reverse proxy that bounds connections itself; the default bind), with CONN_GUARD=0, and on Deno
 * Deploy (the platform's edge holds the connections). CONN_GUARD=1 puts the guard in front of a
 * loopback bind too.
 */
import type { Config } from "../kit/config.ts";
import { type ConnGuard, startConnGuard } from "../kit/net/conn_guard.ts";
import type { ConnectionLimits } from "../kit/net/conn_limits.ts";

type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/** A started server. */
export interface Serving {
  /** The public address. */
  addr: Deno.NetAddr;
  /** The guard, when there is one. */
  guard: ConnGuard | null;
  /** Where the HTTP server behind the guard listens (loopback), when there is a guard. */
  inner: Deno.NetAddr | null;
  /** One line for the start-up summary. */
  describe: string;
  close(): Promise<void>;
}

/**
 * `Deno.serve` that comes back: when its accept loop dies (EMFILE: out of file descriptors ends
 * it for good, and its `finished` promise rejects), a new server is started on the same address
 * (port 0: a new port, announced through `onRestart`), retried with a growing pause.
 */
function resilientServe(
  options: { hostname: string; port: number },
  handler: Handler,
  log: (entry: Record<string, unknown>) => void,
  onRestart: (addr: Deno.NetAddr) => void = () => {},
): { addr: Deno.NetAddr; shutdown(): Promise<void> } {
  let stopped = false;
  let current: Deno.HttpServer<Deno.NetAddr>;
  const start = (delayMs: number, first = false): void => {
    try {
      current = Deno.serve({ ...options, onListen: () => {} }, handler);
    } catch (error) {
      // At start-up a failure (e.g. the port is in use) is the operator's to see, at once.
      if (first) throw error;
      log({ event: "http.restart_failed", error: String(error), retryInMs: delayMs });
      setTimeout(() => start(Math.min(delayMs * 2, 2000)), delayMs);
      return;
    }
    onRestart(current.addr);
    current.finished.catch((error) => {
      if (stopped) return;
      log({ event: "http.accept_failed", error: String(error) });
      setTimeout(() => start(100), 50);
    });
  };
  start(100, true);
  return {
    get addr() {
      return current.addr;
    },
    shutdown() {
      stopped = true;
      return current.shutdown().catch(() => {});
    },
  };
}

/** A request that reached the HTTP server behind the guard without passing through it. */
const NOT_THROUGH_GUARD = () =>
  Response.json({ error: "Connect through the server's public address." }, {
    status: 403,
    headers: { connection: "close" },
  });

/**
 * Serves `handler` on `hostname:config.port`, guarded as the configuration says, with `limits`
 * (lib/kit/net/conn_limits.ts; main.ts counts the descriptors before anything else opens one).
 */
export function serveHttp(
  config: Pick<Config, "port" | "connections" | "onDeploy" | "loopbackOnly">,
  handler: Handler,
  options: {
    hostname?: string;
    log?: (entry: Record<string, unknown>) => void;
    /** The guard's caps; required when the configuration asks for the guard. */
    limits?: ConnectionLimits;
  } = {},
): Serving {
  const hostname = options.hostname ?? "0.0.0.0";
  const log = options.log ?? ((entry) => console.error(JSON.stringify(entry)));
  const c = config.connections;
  if (!c.guard) {
    const server = resilientServe({ hostname, port: config.port }, handler, log);
    const why = config.onDeploy
      ? "Deno Deploy: its edge holds the connections"
      : config.loopbackOnly
      ? "loopback bind: only this machine can connect; HOST=0.0.0.0 or CONN_GUARD=1 puts the " +
        "connection guard in front"
      : "CONN_GUARD=0: a proxy in front must bound the connections";
    return {
      addr: server.addr,
      guard: null,
      inner: null,
      describe: `Connections: Deno.serve alone (${why}); no connection caps or header timeout ` +
        "in this process",
      close: () => server.shutdown(),
    };
  }
  const limits = options.limits;
  if (!limits) throw new Error("serveHttp: the connection guard needs its limits");
  // Set once the guard has started (the HTTP server starts first: the guard needs its port).
  const ref: { guard?: ConnGuard } = {};
  // The HTTP server listens on a loopback port of its own; only the guard is public. A request
  // from any other local process that found that port is refused: it would skip the caps and
  // timeouts, and be seen as 127.0.0.1 (docs/connections.md says what is left of that).
  const inner = resilientServe(
    { hostname: "127.0.0.1", port: 0 },
    (req, info) => {
      const client = ref.guard?.clientOf(info.remoteAddr as Deno.NetAddr);
      return client ? handler(req, { ...info, remoteAddr: client }) : NOT_THROUGH_GUARD();
    },
    log,
    (addr) => ref.guard?.setUpstreamPort(addr.port),
  );
  const g = ref.guard = startConnGuard({
    hostname,
    port: config.port,
    upstream: { hostname: "127.0.0.1", port: inner.addr.port },
    maxConnections: limits.max,
    maxPerAddress: limits.perIp,
    headerTimeoutMs: c.headerTimeoutMs,
    idleTimeoutMs: c.keepAliveTimeoutMs,
    log,
  });
  return {
    addr: g.addr,
    guard: g,
    get inner() {
      return inner.addr;
    },
    describe:
      `Connections: guarded (${
        config.loopbackOnly ? "CONN_GUARD=1" : "a bind other than loopback"
      }): ${limits.describe}; request headers within ${c.headerTimeoutMs} ms; idle keep-alive ` +
      `closed after ${c.keepAliveTimeoutMs} ms`,
    async close() {
      await g.close();
      await inner.shutdown();
    },
  };
}
