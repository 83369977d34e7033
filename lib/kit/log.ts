/**
 * Structured logs: one JSON object per line, on stdout by default, with a `ts` and the service.
 * Events: `http.request` (one per request: method, path without the query string, status, ms, the
 * client's network), `scan.finished` (one per scan, from lib/engines/scan/worker.ts), `http.error`, `cleanup`,
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

/** Field names that are a credential whole ("cookie"), lower-cased. */
const SECRET_FIELDS = new Set([
  "authorization",
  "cookie",
  "set-cookie",
  "token",
  "key",
  "apikey",
  "api_key",
  "csrf",
  "session",
]);

/**
 * Whether a field's name says credential: one of {@link SECRET_FIELDS}, any name ending in `_token`
 * or `_key`, or holding "password" or "secret". Plain string tests: the expression this replaces
 * (`.*password.*` beside `.*secret.*`) was quadratic in a long field name.
 */
function isSecretField(name: string): boolean {
  const k = name.toLowerCase();
  return SECRET_FIELDS.has(k) || k.endsWith("_token") || k.endsWith("_key") ||
    k.includes("password") || k.includes("secret");
}
const SECRET_VALUE: [RegExp, string][] = [
  [/\bu[vs]k_[A-Za-z0-9_-]{8,}/g, "u?k_[redacted]"],
  [/\bBearer\s+[^\s,;"]+/gi, "Bearer [redacted]"],
  [/\$argon2(id|i|d)\$[^\s"]+/g, "$argon2[redacted]"],
  // `\b`: a scheme starts a word, so a long word is not retried from each of its characters.
  [/\b(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g, "$1[redacted]@"],
];
/** What every pattern of SECRET_VALUE needs to contain: most strings are passed over by this test. */
const MAY_HOLD_SECRET = /u[vs]k_|bearer|\$argon2|@/i;

/** A copy of a log entry with credentials removed (recursively). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    if (!MAY_HOLD_SECRET.test(value)) return value;
    return SECRET_VALUE.reduce((s, [re, by]) => s.replace(re, by), value);
  }
  if (!value || typeof value !== "object" || depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return redact(value.message, depth + 1);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSecretField(k) ? "[redacted]" : redact(v, depth + 1);
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
 * request), in batches: at most every `flushMs`, or at once when `batchLines` are waiting (one
 * write per line cost about 15 µs a request under load: more than the rest of a cached report
 * read). Past `maxQueued` waiting lines, new ones are dropped and counted in a `log.dropped` line
 * once there is room again.
 */
export function stdoutSink(maxQueued = 10_000, flushMs = 50, batchLines = 512): LogSink {
  const encoder = new TextEncoder();
  const queue: string[] = [];
  let writing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dropped = 0;
  const pump = async () => {
    timer = undefined;
    writing = true;
    try {
      while (queue.length) {
        const bytes = encoder.encode(queue.splice(0, batchLines).join("\n") + "\n");
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
    if (writing) return;
    if (queue.length >= batchLines) {
      clearTimeout(timer);
      pump();
    } else timer ??= setTimeout(pump, flushMs);
  };
}

/**
 * The network of a client address, as logged: IPv4 to its /24, IPv6 (already grouped by /64 in
 * lib/kit/net/client_ip.ts) to its /48. Enough to see abuse patterns, not to identify a person.
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

/**
 * Wraps a Deno.serve handler so that every request logs one `http.request` line. A handler that
 * answers synchronously (the report cache's hits) stays synchronous: Deno.serve sends a plain
 * `Response` faster than a promise of one, and the log line costs a few microseconds, not an
 * extra turn of the event loop.
 */
export function withRequestLog(
  handler: Handler,
  options: { log: Logger; trustProxy: boolean },
): Handler {
  const logged = (
    req: Request,
    info: Deno.ServeHandlerInfo | undefined,
    t0: number,
    status: number,
  ) => {
    const path = pathOf(req.url);
    const remote = info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : undefined;
    options.log({
      event: "http.request",
      method: req.method,
      path: path.length > 200 ? `${path.slice(0, 200)}...` : path,
      status,
      ms: Math.round((performance.now() - t0) * 10) / 10,
      ip: ipClass(
        clientIp(remote, req.headers.get("x-forwarded-for") ?? undefined, options.trustProxy),
      ),
    });
  };
  return (req, info) => {
    const t0 = performance.now();
    let answer: Response | Promise<Response>;
    try {
      answer = handler(req, info);
    } catch (error) {
      logged(req, info, t0, 500);
      throw error;
    }
    if (answer instanceof Response) {
      logged(req, info, t0, answer.status);
      return answer;
    }
    return answer.then((res) => {
      logged(req, info, t0, res.status);
      return res;
    }, (error) => {
      logged(req, info, t0, 500);
      throw error;
    });
  };
}

/** The path of a request URL, without the query (what `new URL(url).pathname` gives, cheaper). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  const q = url.indexOf("?", start);
  if (q >= 0) end = q;
  const h = url.indexOf("#", start);
  if (h >= 0 && h < end) end = h;
  return url.slice(start, end);
}
