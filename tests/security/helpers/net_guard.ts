/**
 * The safety net of the security suite: a connect spy and counting sentinel listeners.
 *
 * `installConnectSpy()` wraps every way this process can open a socket (`node:net` connect /
 * createConnection, `node:tls` connect, `Deno.connect`, `Deno.connectTls`, `fetch`) and records
 * each attempt. An attempt to any address outside loopback (127.0.0.0/8, ::1, "localhost") is
 * refused right there, before any socket exists, so a test can never send traffic off this
 * machine even if the code under test were broken; the attempt is still recorded so the test
 * fails. The guarded fetcher's own refusals happen earlier still (no attempt is recorded).
 *
 * `startSentinels()` binds counting listeners on 127.0.0.1, 127.0.0.2 and [::1] at one port (and,
 * when the process may, at ports 80 and 443 too) so that URLs aimed at those addresses have a
 * real server to reach; a test asserts that none of them ever accepted a connection.
 */
import net from "node:net";
import tls from "node:tls";

/** One attempt to open a connection. */
export interface ConnectAttempt {
  api: string;
  host: string;
  port: number;
  /** False when the spy refused it (a non-loopback address). */
  allowed: boolean;
}

/** A running spy. */
export interface ConnectSpy {
  readonly attempts: ConnectAttempt[];
  /** Attempts to addresses outside loopback (all refused by the spy). */
  offLoopback(): ConnectAttempt[];
  /** Attempts to one port (any host). */
  toPort(port: number): ConnectAttempt[];
  restore(): void;
}

/** True for 127.0.0.0/8, ::1, ::ffff:127.x and "localhost". */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const v4 = h.startsWith("::ffff:") ? h.slice(7) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function refused(host: string, port: number): Error {
  return Object.assign(
    new Error(`connect spy: refused connection to ${host}:${port} (not loopback)`),
    { code: "ECONNREFUSED" },
  );
}

/** Reads host and port from the many call shapes of net.connect / tls.connect. */
function target(args: unknown[]): { host: string; port: number } {
  const [a, b] = args;
  if (a && typeof a === "object") {
    const o = a as { host?: string; hostname?: string; port?: number | string; path?: string };
    if (o.path) return { host: "localhost", port: 0 }; // a Unix socket: local by definition
    return { host: String(o.host ?? o.hostname ?? "localhost"), port: Number(o.port ?? 0) };
  }
  return { host: typeof b === "string" ? b : "localhost", port: Number(a ?? 0) };
}

let active: ConnectSpy | null = null;

/** Installs the spy (one at a time per isolate). */
export function installConnectSpy(): ConnectSpy {
  if (active) throw new Error("a connect spy is already installed");
  const attempts: ConnectAttempt[] = [];
  const netObj = net as unknown as Record<string, (...a: unknown[]) => unknown>;
  const tlsObj = tls as unknown as Record<string, (...a: unknown[]) => unknown>;
  const denoObj = Deno as unknown as Record<string, (...a: unknown[]) => unknown>;
  const originals = {
    netConnect: netObj.connect,
    netCreateConnection: netObj.createConnection,
    tlsConnect: tlsObj.connect,
    denoConnect: denoObj.connect,
    denoConnectTls: denoObj.connectTls,
    fetch: globalThis.fetch,
  };
  const check = (api: string, host: string, port: number) => {
    const allowed = isLoopbackHost(host);
    attempts.push({ api, host, port, allowed });
    if (!allowed) throw refused(host, port);
  };
  const wrapNode =
    (api: string, original: (...a: unknown[]) => unknown) => (...args: unknown[]) => {
      const t = target(args);
      check(api, t.host, t.port);
      return original.apply(api.startsWith("tls") ? tls : net, args);
    };
  netObj.connect = wrapNode("net.connect", originals.netConnect);
  netObj.createConnection = wrapNode("net.createConnection", originals.netCreateConnection);
  tlsObj.connect = wrapNode("tls.connect", originals.tlsConnect);
  denoObj.connect = (...args: unknown[]) => {
    const o = args[0] as { hostname?: string; port: number; transport?: string };
    if (o?.transport === "unix") return originals.denoConnect.apply(Deno, args);
    try {
      check("Deno.connect", o?.hostname ?? "127.0.0.1", o?.port);
    } catch (e) {
      return Promise.reject(e);
    }
    return originals.denoConnect.apply(Deno, args);
  };
  denoObj.connectTls = (...args: unknown[]) => {
    const o = args[0] as { hostname?: string; port: number };
    try {
      check("Deno.connectTls", o?.hostname ?? "127.0.0.1", o?.port);
    } catch (e) {
      return Promise.reject(e);
    }
    return originals.denoConnectTls.apply(Deno, args);
  };
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    try {
      check(
        "fetch",
        url.hostname,
        Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      );
    } catch (e) {
      return Promise.reject(e);
    }
    return originals.fetch(input, init);
  };
  const spy: ConnectSpy = {
    attempts,
    offLoopback: () => attempts.filter((a) => !a.allowed),
    toPort: (port) => attempts.filter((a) => a.port === port),
    restore() {
      netObj.connect = originals.netConnect;
      netObj.createConnection = originals.netCreateConnection;
      tlsObj.connect = originals.tlsConnect;
      denoObj.connect = originals.denoConnect;
      denoObj.connectTls = originals.denoConnectTls;
      globalThis.fetch = originals.fetch;
      active = null;
    },
  };
  active = spy;
  return spy;
}

/** Counting listeners on loopback addresses. */
export interface Sentinels {
  /** The port bound on every sentinel address. */
  port: number;
  /** host:port of every listener, e.g. "127.0.0.2:43210", "[::1]:80". */
  bound: string[];
  /** Connections accepted so far, per listener. */
  accepted(): Record<string, number>;
  /** Connections accepted by all listeners. */
  total(): number;
  close(): Promise<void>;
}

/** The sentinel addresses. */
export const SENTINEL_HOSTS = ["127.0.0.1", "127.0.0.2", "::1"] as const;

/**
 * Binds a listener on each sentinel address at one free port (retrying other ports), plus ports
 * 80 and 443 where this process may bind them (best effort: as root they are).
 */
export function startSentinels(): Sentinels {
  const listeners: { name: string; listener: Deno.Listener }[] = [];
  const counts: Record<string, number> = {};
  const open = (hostname: string, port: number) => {
    const listener = Deno.listen({ hostname, port });
    const name = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
    listeners.push({ name, listener });
    counts[name] = 0;
  };
  let port = 0;
  for (let attempt = 0; attempt < 50 && !port; attempt++) {
    const candidate = 20_000 + Math.floor(Math.random() * 40_000);
    const opened: Deno.Listener[] = [];
    try {
      for (const h of SENTINEL_HOSTS) opened.push(Deno.listen({ hostname: h, port: candidate }));
      for (const l of opened) l.close();
      port = candidate;
    } catch {
      for (const l of opened) l.close();
    }
  }
  if (!port) throw new Error("no free port for the sentinels");
  for (const h of SENTINEL_HOSTS) open(h, port);
  for (const wellKnown of [80, 443]) {
    for (const h of SENTINEL_HOSTS) {
      try {
        open(h, wellKnown);
      } catch {
        // Not root, or the port is taken: the random-port sentinels still stand.
      }
    }
  }
  const loops = listeners.map(({ name, listener }) =>
    (async () => {
      for await (const conn of listener) {
        counts[name]++;
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    })().catch(() => {})
  );
  return {
    port,
    bound: listeners.map((l) => l.name),
    accepted: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    async close() {
      for (const { listener } of listeners) {
        try {
          listener.close();
        } catch { /* closed */ }
      }
      await Promise.all(loops);
    },
  };
}
