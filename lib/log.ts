/**
 * Structured logs: one JSON object per line, on stdout by default, with a `ts` and the service.
 * Events: `http.request` (one per request: method, path without the query string, status, ms, the
 * client's network), `scan.finished` (one per scan, from lib/scan/worker.ts), `http.error`, `cleanup`,
 * `startup`.
 *
 * Never a secret: fields whose name says credential (authorization, cookie, token, password,
 * secret, key) are replaced, and API keys, bearer tokens and URL credentials are scrubbed from
 * every string, so a careless log call cannot leak one either. The sink is injectable for tests.
 */
import { clientIp } from "./net/client_ip.ts";

/** Receives one serialised line. */
export type LogSink = (line: string) => void;
/** Logs one event. */
export type Logger = (entry: Record<string, unknown>) => void;

const SECRET_FIELD =
  /^(authorization|cookie|set-cookie|token|.*_token|password|.*password.*|secret|.*secret.*|key|api_?key|.*_key|csrf|session)$/i;
const SECRET_VALUE: [RegExp, string][] = [
  [/\bu[vs]k_[A-Za-z0-9_-]{8,}/g, "u?k_[redacted]"],
  [/\bBearer\s+[^\s,;"]+/gi, "Bearer [redacted]"],
  [/\$argon2(id|i|d)\$[^\s"]+/g, "$argon2[redacted]"],
  [/(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g, "$1[redacted]@"],
];

/** A copy of a log entry with credentials removed (recursively). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    return SECRET_VALUE.reduce((s, [re, by]) => s.replace(re, by), value);
  }
  if (!value || typeof value !== "object" || depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return redact(value.message, depth + 1);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELD.test(k) ? "[redacted]" : redact(v, depth + 1);
  }
  return out;
}

/** A logger writing one redacted JSON line per event, with `ts` and the fields of `base`. */
export function jsonLogger(
  base: Record<string, unknown> = {},
  sink: LogSink = (line) => console.log(line),
): Logger {
  return (entry) => {
    try {
      sink(JSON.stringify({ ts: new Date().toISOString(), ...base, ...redact(entry) as object }));
    } catch {
      // Logging never breaks a request.
    }
  };
}

/**
 * A sink that never blocks the server: lines are queued and written to stdout asynchronously
 * (`console.log` writes synchronously, so a stdout pipe that nobody reads would stall every
 * request). Past `maxQueued` waiting lines, new ones are dropped and counted in a `log.dropped`
 * line once there is room again.
 */
export function stdoutSink(maxQueued = 10_000): LogSink {
  const encoder = new TextEncoder();
  const queue: string[] = [];
  let writing = false;
  let dropped = 0;
  const pump = async () => {
    writing = true;
    try {
      while (queue.length) {
        const bytes = encoder.encode(queue.splice(0, 256).join("\n") + "\n");
        let off = 0;
        while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
      }
    } catch {
      queue.length = 0; // stdout is gone: nothing more can be written
    } finally {
      writing = false;
    }
  };
  return (line) => {
    if (queue.length >= maxQueued) {
      dropped++;
      return;
    }
    if (dropped) {
      queue.push(
        JSON.stringify({ ts: new Date().toISOString(), event: "log.dropped", count: dropped }),
      );
      dropped = 0;
    }
    queue.push(line);
    if (!writing) pump();
  };
}

/**
 * The network of a client address, as logged: IPv4 to its /24, IPv6 (already grouped by /64 in
 * lib/net/client_ip.ts) to its /48. Enough to see abuse patterns, not to identify a person.
 */
export function ipClass(ip: string): string {
  const v4 = ip.match(/^(\d+)\.(\d+)\.(\d+)\.\d+$/);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(":")) {
    const groups = ip.replace(/::\/64$/, "").split(":").filter(Boolean).slice(0, 3);
    return `${groups.join(":")}::/48`;
  }
  return ip === "unknown" ? ip : "other";
}

type Handler = (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/** Wraps a Deno.serve handler so that every request logs one `http.request` line. */
export function withRequestLog(
  handler: Handler,
  options: { log: Logger; trustProxy: boolean },
): Handler {
  return async (req, info) => {
    const started = performance.now();
    let status = 500;
    try {
      const res = await handler(req, info);
      status = res.status;
      return res;
    } finally {
      const url = new URL(req.url);
      const remote = info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : undefined;
      options.log({
        event: "http.request",
        method: req.method,
        path: url.pathname.length > 200 ? `${url.pathname.slice(0, 200)}...` : url.pathname,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip: ipClass(
          clientIp(remote, req.headers.get("x-forwarded-for") ?? undefined, options.trustProxy),
        ),
      });
    }
  };
}
