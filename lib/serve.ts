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

/** Serves `handler` on `hostname:config.port`, guarded as the configuration says. */
export async function serveHttp(
  config: Pick<Config, "port" | "connections">,
  handler: Handler,
  options: { hostname?: string; log?: (entry: Record<string, unknown>) => void } = {},
): Promise<Serving> {
  const hostname = options.hostname ?? "0.0.0.0";
  const c = config.connections;
  if (!c.guard) {
    const server = Deno.serve({ hostname, port: config.port, onListen: () => {} }, handler);
    return {
      addr: server.addr,
      guard: null,
      describe: "Connections: Deno.serve alone (CONN_GUARD=0 or Deno Deploy): no connection caps " +
        "or header timeout in this process",
      close: () => server.shutdown(),
    };
  }
  // The HTTP server listens on a loopback port of its own; only the guard is public.
  const inner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req, info) => {
    const client = guard.clientOf(info.remoteAddr.port);
    return handler(req, client ? { ...info, remoteAddr: client } : info);
  });
  const max = c.max || defaultMaxConnections();
  const guard: ConnGuard = startConnGuard({
    hostname,
    port: config.port,
    upstream: { hostname: "127.0.0.1", port: inner.addr.port },
    maxConnections: max,
    maxPerAddress: c.perIp,
    headerTimeoutMs: c.headerTimeoutMs,
    idleTimeoutMs: c.keepAliveTimeoutMs,
    log: options.log,
  });
  await Promise.resolve();
  return {
    addr: guard.addr,
    guard,
    describe: `Connections: at most ${max} open${
      c.perIp ? `, ${c.perIp} per client address` : " (no per-address cap)"
    }; request headers within ${c.headerTimeoutMs} ms; idle keep-alive closed after ${c.keepAliveTimeoutMs} ms`,
    async close() {
      await guard.close();
      await inner.shutdown();
    },
  };
}
