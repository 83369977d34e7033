/**
 * Serving HTTP: `Deno.serve` behind the connection guard (lib/net/conn_guard.ts) by default, or
 * `Deno.serve` alone on Deno Deploy (the platform's edge holds the connections) and with
 * CONN_GUARD=0 (behind a proxy that bounds connections itself).
 */
import type { Config } from "./config.ts";
import { type ConnGuard, defaultMaxConnections, startConnGuard } from "./net/conn_guard.ts";

type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/** A started server. */
export interface Serving {
  /** The public address. */
  addr: Deno.NetAddr;
  /** The guard, when there is one. */
  guard: ConnGuard | null;
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

/** Serves `handler` on `hostname:config.port`, guarded as the configuration says. */
export function serveHttp(
  config: Pick<Config, "port" | "connections">,
  handler: Handler,
  options: { hostname?: string; log?: (entry: Record<string, unknown>) => void } = {},
): Serving {
  const hostname = options.hostname ?? "0.0.0.0";
  const log = options.log ?? ((entry) => console.error(JSON.stringify(entry)));
  const c = config.connections;
  if (!c.guard) {
    const server = resilientServe({ hostname, port: config.port }, handler, log);
    return {
      addr: server.addr,
      guard: null,
      describe: "Connections: Deno.serve alone (CONN_GUARD=0 or Deno Deploy): no connection caps " +
        "or header timeout in this process",
      close: () => server.shutdown(),
    };
  }
  // Set once the guard has started (the HTTP server starts first: the guard needs its port).
  const ref: { guard?: ConnGuard } = {};
  // The HTTP server listens on a loopback port of its own; only the guard is public.
  const inner = resilientServe(
    { hostname: "127.0.0.1", port: 0 },
    (req, info) => {
      const client = ref.guard?.clientOf((info.remoteAddr as Deno.NetAddr).port);
      return handler(req, client ? { ...info, remoteAddr: client } : info);
    },
    log,
    (addr) => ref.guard?.setUpstreamPort(addr.port),
  );
  const max = c.max || defaultMaxConnections();
  const g = ref.guard = startConnGuard({
    hostname,
    port: config.port,
    upstream: { hostname: "127.0.0.1", port: inner.addr.port },
    maxConnections: max,
    maxPerAddress: c.perIp,
    headerTimeoutMs: c.headerTimeoutMs,
    idleTimeoutMs: c.keepAliveTimeoutMs,
    log,
  });
  return {
    addr: g.addr,
    guard: g,
    describe: `Connections: at most ${max} open${
      c.perIp ? `, ${c.perIp} per client address` : " (no per-address cap)"
    }; request headers within ${c.headerTimeoutMs} ms; idle keep-alive closed after ${c.keepAliveTimeoutMs} ms`,
    async close() {
      await g.close();
      await inner.shutdown();
    },
  };
}
