/**
 * The guarded fetcher: the one way this codebase makes outbound HTTP requests.
 *
 * Every connection goes through a custom undici `connect` function that resolves the host name
 * itself, refuses the connection when any resolved address is not public (see ip_policy.ts) and
 * then connects to the checked address, so the address checked is the address connected to
 * (no DNS-rebinding window between check and connect). Redirects are followed by hand, so each
 * hop is validated again. Host names in the SCAN_RESOLVE map bypass DNS and the guard and are
 * served over plain HTTP on the mapped address (tests and self-hosting only).
 *
 * @example
 * ```ts
 * const fetcher = createGuardedFetcher({ userAgent: config.userAgent, resolve: config.scanResolve });
 * try {
 *   const page = await fetcher.fetch("https://example.com/", { signal: scanDeadline });
 *   console.log(page.status, page.body.length, page.truncated);
 * } catch (error) {
 *   if (error instanceof FetchError) console.log(error.kind); // "blocked", "timeout", ...
 * } finally {
 *   await fetcher.close();
 * }
 * ```
 * @module
 */
import { decodeBody } from "./decode.ts";
import { Agent, fetch as undiciFetch } from "undici";
import type { Dispatcher } from "undici";
import net from "node:net";
import tls from "node:tls";
import type { ResolveTarget } from "../config.ts";
import { isPublicAddress, parseHostLiteral } from "./ip_policy.ts";
import {
  assertFetchableUrl,
  defaultLookup,
  findResolveTarget,
  type LookupFunction,
  resolvePublicAddresses,
} from "./resolve.ts";
import { Deadline, readBody, toFetchError } from "./fetch_body.ts";
import { FetchError, type FetchOptions, type FetchResult, type GuardedFetcher } from "./types.ts";
import type { RedirectHop } from "./types.ts";

export {
  assertFetchableUrl,
  findResolveTarget,
  type LookupAddress,
  type LookupFunction,
  type ResolveOptions,
  resolvePublicAddresses,
} from "./resolve.ts";
export { BodyBuffer } from "./fetch_body.ts";

/** Options of {@link createGuardedFetcher}. */
export interface GuardedFetcherOptions {
  /** Default User-Agent of every request (FetchOptions.userAgent overrides it). */
  userAgent: string;
  /** SCAN_RESOLVE: host names served over plain HTTP at a fixed address, bypassing the guard. */
  resolve?: Map<string, ResolveTarget>;
  /** Default per-request time budget, body included. Default 10 000 ms. */
  requestTimeoutMs?: number;
  /** Default body cap in bytes after decompression. Default 5 MiB. */
  maxBodyBytes?: number;
  /** Default number of redirects followed; clamped to 0..5. Default 5. */
  maxRedirects?: number;
  /** DNS resolver; default `node:dns/promises` lookup with `{ all: true }`. Injected by tests. */
  lookup?: LookupFunction;
  /**
   * Which resolved addresses may be connected to. Default {@link isPublicAddress}. Only tests
   * change it (to prove that the connection goes to the checked address using loopback
   * addresses); production code must never pass it.
   */
  isAllowedAddress?: (ip: string) => boolean;
}

const MAX_REDIRECTS_CAP = 5;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** Larger response heads fail as "network" instead of being buffered. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Time given to one address before trying the next answer of the same name. */
const ATTEMPT_TIMEOUT_MS = 3_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_HEADERS: Record<string, string> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en",
};

/**
 * Creates the guarded fetcher. One fetcher per process (or per test) is enough: connections are
 * pooled per origin until {@link GuardedFetcher.close}.
 *
 * Time: `timeoutMs` covers the whole request (every redirect, the body included). A body that
 * is still dripping at the deadline fails with kind "timeout"; the partial body is dropped,
 * because `truncated` means "cut at maxBytes" and a half-received page would be scored as if
 * it were whole. Aborting `options.signal` (the scan's deadline) also fails with "timeout".
 *
 * Errors: only {@link FetchError} is thrown. "invalid_url": unparseable, non-http(s), userinfo,
 * bad redirect Location. "blocked": a literal or resolved address is not public. "dns": no
 * address. "timeout": deadline or caller abort. "too_many_redirects": more hops than allowed.
 * "network": refused/reset connection, TLS failure, headers over 64 KiB, malformed response.
 *
 * @example
 * ```ts
 * const fetcher = createGuardedFetcher({ userAgent: "AIVisibilityBot/0.1", resolve });
 * const r = await fetcher.fetch("http://shop.test/robots.txt", { maxBytes: 512 * 1024 });
 * await fetcher.close();
 * ```
 */
export function createGuardedFetcher(options: GuardedFetcherOptions): GuardedFetcher {
  const resolve = options.resolve;
  const lookup = options.lookup ?? defaultLookup;
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const defaultTimeout = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultMaxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BYTES;
  const defaultRedirects = options.maxRedirects ?? MAX_REDIRECTS_CAP;
  // fetch() does not expose the socket; connections are per origin, so the address of the
  // latest connection to the response's origin is the address that served it.
  const connectedTo = new Map<string, string>();
  // Connects still in progress, aborted by close() so no timer or lookup outlives the fetcher.
  const connecting = new Set<AbortController>();

  const openSocket = async (o: ConnectParams, abort: AbortSignal): Promise<net.Socket> => {
    const target = findResolveTarget(o.hostname, resolve);
    const key = originKey(o.protocol, o.hostname, o.port);
    if (target) {
      // SCAN_RESOLVE: plain HTTP to the mapped address whatever the scheme (documented rule).
      const socket = await dial(() => net.connect({ host: target.host, port: target.port }), abort);
      connectedTo.set(key, target.host);
      return socket;
    }
    const addresses = await resolvePublicAddresses(o.hostname, lookup, {
      signal: abort,
      isAllowedAddress: isAllowed,
    });
    const port = Number(o.port) || (o.protocol === "https:" ? 443 : 80);
    const https = o.protocol === "https:";
    // Every answer was checked; try them in order (an IPv6 answer may be unreachable from here),
    // each connection going to the checked address itself, never to the name.
    let lastError: unknown;
    for (const [i, { address }] of addresses.entries()) {
      if (abort.aborted) throw new FetchError("timeout", "Connect timed out", o.hostname);
      const attempt = new AbortController();
      const onAbort = () => attempt.abort();
      abort.addEventListener("abort", onAbort, { once: true });
      const timer = i < addresses.length - 1
        ? setTimeout(() => attempt.abort(), ATTEMPT_TIMEOUT_MS)
        : undefined;
      try {
        const socket = await dial(
          () =>
            https
              ? tls.connect({
                host: address,
                port,
                // SNI must not be an IP address; the certificate is still checked against it.
                servername: parseHostLiteral(o.hostname) === null ? o.hostname : undefined,
                ALPNProtocols: ["http/1.1"],
              })
              : net.connect({ host: address, port }),
          attempt.signal,
          https ? "secureConnect" : "connect",
        );
        connectedTo.set(key, address);
        return socket;
      } catch (error) {
        lastError = error;
      } finally {
        clearTimeout(timer);
        abort.removeEventListener("abort", onAbort);
      }
    }
    throw lastError;
  };

  const agent = new Agent({
    maxHeaderSize: MAX_HEADER_BYTES,
    allowH2: false,
    connect: (params, callback) => {
      const o = params as unknown as ConnectParams;
      const controller = new AbortController();
      connecting.add(controller);
      // The request's own signal does not reach connect, so it carries its own deadline.
      const timer = setTimeout(() => controller.abort(), defaultTimeout);
      const settle = () => {
        clearTimeout(timer);
        connecting.delete(controller);
      };
      openSocket(o, controller.signal).then(
        (socket) => {
          settle();
          callback(null, socket);
        },
        (error) => {
          settle();
          callback(error as Error, null);
        },
      );
    },
  });
  let closed = false;
  /** `url` when the request may reach its host: a mapped host the caller did not allow is not. */
  const reachable = (url: URL, o: FetchOptions): URL => {
    if (!o.mayReachMapped || !findResolveTarget(url.hostname, resolve)) return url;
    const host = url.hostname.toLowerCase().replace(/\.$/, "");
    if (o.mayReachMapped(host)) return url;
    throw new FetchError(
      "blocked",
      `${host} is mapped by SCAN_RESOLVE and is not a host this request may reach`,
      url.href,
    );
  };

  return {
    async fetch(url: string, fetchOptions: FetchOptions = {}): Promise<FetchResult> {
      if (closed) throw new FetchError("network", "Fetcher is closed", url);
      const method = fetchOptions.method ?? "GET";
      if (method !== "GET" && method !== "HEAD" && method !== "POST") {
        throw new FetchError("invalid_url", `Method ${method} is not allowed`, url);
      }
      let current = reachable(assertFetchableUrl(url, resolve), fetchOptions);
      // A POST is answered where it was sent: replaying a body across origins is never wanted.
      const maxRedirects = method === "POST" ? 0 : clamp(
        fetchOptions.maxRedirects ?? defaultRedirects,
        0,
        MAX_REDIRECTS_CAP,
      );
      const maxBytes = Math.max(0, fetchOptions.maxBytes ?? defaultMaxBytes);
      const headers = requestHeaders(options.userAgent, fetchOptions);
      const deadline = new Deadline(fetchOptions.timeoutMs ?? defaultTimeout, fetchOptions.signal);
      const started = performance.now();
      const redirects: RedirectHop[] = [];
      try {
        for (;;) {
          deadline.throwIfAborted(current.href);
          let response: Response;
          // Repeated lines of headers whose lines mean something apart (see LINE_HEADERS).
          const lines: Record<string, string[]> = {};
          try {
            response = await deadline.race(
              undiciFetch(current.href, {
                method,
                headers,
                body: method === "POST" ? fetchOptions.body : undefined,
                redirect: "manual",
                signal: deadline.signal,
                dispatcher: (agent as Dispatcher).compose(recordLines(lines)),
              }) as unknown as Promise<Response>,
            );
          } catch (error) {
            throw toFetchError(error, current.href, deadline);
          }
          const location = response.headers.get("location");
          if (REDIRECT_STATUSES.has(response.status) && location !== null && method !== "POST") {
            await response.body?.cancel().catch(() => {});
            if (redirects.length >= maxRedirects) {
              throw new FetchError(
                "too_many_redirects",
                `More than ${maxRedirects} redirects`,
                current.href,
              );
            }
            let next: URL;
            try {
              next = new URL(location, current);
            } catch {
              throw new FetchError("invalid_url", "Redirect Location is not a URL", current.href);
            }
            redirects.push({ url: current.href, status: response.status, location: next.href });
            // Re-validated here; the next hop's connect re-checks resolved addresses.
            current = reachable(assertFetchableUrl(next.href, resolve), fetchOptions);
            continue;
          }
          const ttfbMs = performance.now() - started;
          const body = await readBody(response, maxBytes, current.href, deadline);
          const decoded = decodeBody(
            body.data,
            response.headers.get("content-type"),
            current.href,
            maxBytes,
            body.truncated,
          );
          return {
            url,
            finalUrl: current.href,
            status: response.status,
            headers: responseHeaders(response.headers),
            headerLines: lines,
            body: decoded.text,
            bytes: body.data.byteLength,
            truncated: body.truncated || decoded.cut,
            redirects,
            ttfbMs,
            totalMs: performance.now() - started,
            remoteAddress: connectedTo.get(
              originKey(current.protocol, current.hostname, current.port),
            ) ?? "",
          };
        }
      } finally {
        deadline.dispose();
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const controller of connecting) controller.abort();
      await agent.destroy();
    },
  };
}

/** What undici passes to a custom connect function. */
interface ConnectParams {
  hostname: string;
  protocol: string;
  port: string;
}

/** Opens a socket and resolves once it is connected (or rejects, destroying it). */
function dial(
  open: () => net.Socket,
  abort: AbortSignal,
  readyEvent: "connect" | "secureConnect" = "connect",
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = open();
    const onAbort = () => {
      socket.destroy();
      reject(new FetchError("timeout", "Connect timed out", ""));
    };
    abort.addEventListener("abort", onAbort, { once: true });
    socket.once(readyEvent, () => {
      abort.removeEventListener("abort", onAbort);
      resolve(socket);
    });
    socket.once("error", (error) => {
      abort.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(error);
    });
  });
}

function requestHeaders(userAgent: string, o: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = { ...DEFAULT_HEADERS, "user-agent": userAgent };
  for (const [name, value] of Object.entries(o.headers ?? {})) headers[name.toLowerCase()] = value;
  if (o.userAgent) headers["user-agent"] = o.userAgent;
  return headers;
}

/**
 * Headers whose repeated lines are kept apart in {@link FetchResult.headerLines}: joined with ", "
 * (as fetch's Headers joins them) an agent scope of one X-Robots-Tag line would run on into the
 * next line's rules (Google reads each header line on its own).
 */
const LINE_HEADERS = ["x-robots-tag"] as const;

/** An undici interceptor that copies the lines of {@link LINE_HEADERS} of each final response. */
function recordLines(sink: Record<string, string[]>): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(
      opts,
      // Every other call goes to undici's own handler, bound to it (its fields stay private).
      new Proxy(handler, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if (prop !== "onResponseStart" || typeof value !== "function") {
            return typeof value === "function" ? value.bind(target) : value;
          }
          return (...args: unknown[]) => {
            const [, statusCode, headers] = args as [unknown, number, Record<string, unknown>];
            if (statusCode >= 200 && headers) {
              for (const name of LINE_HEADERS) {
                const v = headers[name];
                if (typeof v === "string") sink[name] = [v];
                else if (Array.isArray(v)) sink[name] = v.map(String);
              }
            }
            return value.apply(target, args);
          };
        },
      }),
    );
}

function responseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  // Headers iteration yields lowercased names; set-cookie comes once per cookie.
  for (const [name, value] of headers) out[name] = name in out ? `${out[name]}, ${value}` : value;
  return out;
}

function originKey(protocol: string, hostname: string, port: string): string {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return `${protocol}//${host}:${port || (protocol === "https:" ? "443" : "80")}`;
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.trunc(value))) : max;
}
