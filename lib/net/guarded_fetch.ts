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
import { decodeBody } from "../html/decode.ts";
import { Agent, fetch as undiciFetch } from "undici";
import type { Dispatcher } from "undici";
import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import tls from "node:tls";
import type { ResolveTarget } from "../config.ts";
import { classifyAddress, isPublicAddress, parseHostLiteral } from "./ip_policy.ts";
import { FetchError, type FetchOptions, type FetchResult, type GuardedFetcher } from "./types.ts";
import type { RedirectHop } from "./types.ts";

/** One answer of a DNS lookup. */
export interface LookupAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to all of its addresses (A and AAAA). `signal` aborts when the answer is
 * no longer wanted (connect deadline, fetcher closed); a resolver may ignore it.
 */
export type LookupFunction = (hostname: string, signal?: AbortSignal) => Promise<LookupAddress[]>;

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
const DNS_TIMEOUT_MS = 5_000;
/** Time given to one address before trying the next answer of the same name. */
const ATTEMPT_TIMEOUT_MS = 3_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_HEADERS: Record<string, string> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en",
};

/**
 * Synchronous checks of a URL before any network activity: it parses, is http(s), carries no
 * userinfo, and an IP-literal host is public (unless the host is in the `resolve` map).
 * `localhost` and `*.localhost` are refused without asking DNS (RFC 6761). Returns the parsed URL.
 *
 * @throws {FetchError} kind "invalid_url" or "blocked".
 * @example
 * ```ts
 * assertFetchableUrl("https://example.com/a"); // URL
 * assertFetchableUrl("http://0x7f.1/"); // throws FetchError kind "blocked" (127.0.0.1)
 * assertFetchableUrl("file:///etc/passwd"); // throws FetchError kind "invalid_url"
 * ```
 */
export function assertFetchableUrl(url: string, resolve?: Map<string, ResolveTarget>): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FetchError("invalid_url", "Not a valid URL", url);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new FetchError("invalid_url", `Only http and https URLs can be fetched`, url);
  }
  // Userinfo is how "http://public.example@127.0.0.1/" fools naive checks; no site needs it.
  if (parsed.username || parsed.password) {
    throw new FetchError("invalid_url", "URLs with a user name or password are not fetched", url);
  }
  if (!parsed.hostname) throw new FetchError("invalid_url", "URL has no host", url);
  if (findResolveTarget(parsed.hostname, resolve)) return parsed;
  const literal = parseHostLiteral(parsed.hostname);
  if (literal !== null && !isPublicAddress(literal)) {
    throw blockedError(literal, url);
  }
  if (isLocalhostName(parsed.hostname)) {
    throw new FetchError("blocked", "localhost is not a public host", url);
  }
  return parsed;
}

/** Options of {@link resolvePublicAddresses}. */
export interface ResolveOptions {
  /** Gives up with kind "dns" after this long. Default 5000 ms. */
  timeoutMs?: number;
  /** Gives up with kind "timeout" when aborted. */
  signal?: AbortSignal;
  /** Which addresses are acceptable; default {@link isPublicAddress}. Tests only. */
  isAllowedAddress?: (ip: string) => boolean;
}

/**
 * Resolves a host name (or checks an IP literal, brackets allowed) and returns its addresses
 * only when every one of them is public. Used by the fetcher before each connection and by the
 * API to refuse a scan up front. Does not consult the SCAN_RESOLVE map: callers check
 * {@link findResolveTarget} first.
 *
 * @throws {FetchError} kind "dns" (no answer, lookup failure or time-out), "blocked", or
 * "timeout" when `options.signal` aborts.
 * @example
 * ```ts
 * await resolvePublicAddresses("example.com"); // [{ address: "93.184.215.14", family: 4 }]
 * await resolvePublicAddresses("localhost"); // throws FetchError kind "blocked"
 * ```
 */
export async function resolvePublicAddresses(
  hostname: string,
  lookup: LookupFunction = defaultLookup,
  options: ResolveOptions = {},
): Promise<LookupAddress[]> {
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const literal = parseHostLiteral(hostname);
  if (literal !== null) {
    if (!isAllowed(literal)) throw blockedError(literal, hostname);
    return [{ address: literal, family: net.isIPv6(literal) ? 6 : 4 }];
  }
  if (isLocalhostName(hostname)) {
    throw new FetchError("blocked", "localhost is not a public host", hostname);
  }
  const { signal, timeoutMs = DNS_TIMEOUT_MS } = options;
  if (signal?.aborted) throw new FetchError("timeout", "Aborted before DNS lookup", hostname);
  let answers: LookupAddress[];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  try {
    answers = await Promise.race([
      lookup(hostname, signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("DNS lookup timed out")), timeoutMs);
        onAbort = () => reject(new FetchError("timeout", "Aborted during DNS lookup", hostname));
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    if (error instanceof FetchError) throw error;
    const code = (error as { code?: string }).code;
    throw new FetchError(
      "dns",
      `Host name does not resolve (${code ?? errorText(error)})`,
      hostname,
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  // Only canonical IP strings are accepted, so the string checked is the string connected to.
  const valid = answers.filter((a) => net.isIP(a.address) !== 0);
  if (valid.length === 0) throw new FetchError("dns", "Host name has no address", hostname);
  // One non-public answer blocks the name: otherwise a rebinding name could list both.
  const bad = valid.find((a) => !isAllowed(a.address));
  if (bad) throw blockedError(bad.address, hostname);
  return valid;
}

/**
 * The SCAN_RESOLVE target of a host name (case and a trailing dot ignored), if any.
 *
 * @example
 * ```ts
 * findResolveTarget("Shop.test.", parseScanResolve("shop.test=127.0.0.1:4507")); // { host, port }
 * ```
 */
export function findResolveTarget(
  hostname: string,
  resolve: Map<string, ResolveTarget> | undefined,
): ResolveTarget | undefined {
  if (!resolve || resolve.size === 0) return undefined;
  return resolve.get(hostname.toLowerCase().replace(/\.$/, ""));
}

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

  return {
    async fetch(url: string, fetchOptions: FetchOptions = {}): Promise<FetchResult> {
      if (closed) throw new FetchError("network", "Fetcher is closed", url);
      const method = fetchOptions.method ?? "GET";
      if (method !== "GET" && method !== "HEAD" && method !== "POST") {
        throw new FetchError("invalid_url", `Method ${method} is not allowed`, url);
      }
      let current = assertFetchableUrl(url, resolve);
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
          try {
            response = await Promise.race([
              undiciFetch(current.href, {
                method,
                headers,
                body: method === "POST" ? fetchOptions.body : undefined,
                redirect: "manual",
                signal: deadline.signal,
                dispatcher: agent as Dispatcher,
              }) as unknown as Promise<Response>,
              deadline.whenAborted,
            ]);
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
            current = assertFetchableUrl(next.href, resolve);
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

async function defaultLookup(hostname: string): Promise<LookupAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
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

/** One request's time budget combined with the caller's signal. */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #caller?: AbortSignal;
  readonly #onCallerAbort = () => this.#abort("Request aborted by the caller");
  #rejectAborted: (reason: FetchError) => void = () => {};
  reason = "";
  /**
   * Rejects when the deadline passes. Raced against every await on undici: on Deno a pending
   * body read is not always rejected when the fetch is aborted, and would hang forever.
   */
  readonly whenAborted: Promise<never> = new Promise<never>((_, reject) => {
    this.#rejectAborted = reject;
  });

  constructor(timeoutMs: number, caller?: AbortSignal) {
    this.whenAborted.catch(() => {}); // handled by whoever races it
    // A plain timer (not AbortSignal.timeout) so dispose() can clear it and leave nothing behind.
    this.#timer = setTimeout(() => this.#abort(`Timed out after ${timeoutMs} ms`), timeoutMs);
    this.#caller = caller;
    if (caller?.aborted) this.#onCallerAbort();
    else caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  throwIfAborted(url: string): void {
    if (this.aborted) throw new FetchError("timeout", this.reason, url);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  #abort(reason: string): void {
    if (this.aborted) return;
    this.reason = reason;
    const error = new FetchError("timeout", reason, "");
    this.#controller.abort(error);
    this.#rejectAborted(error);
  }
}

/**
 * Reads at most maxBytes of the (decompressed) body, then cancels the rest of the stream. Chunks
 * are copied into one buffer as they arrive (grown by doubling, never past maxBytes), so the
 * memory held is the body itself however small the chunks: a body sent one byte at a time used
 * to keep one typed array (~100 bytes of overhead) per byte.
 */
async function readBody(
  response: Response,
  maxBytes: number,
  url: string,
  deadline: Deadline,
): Promise<{ data: Uint8Array; truncated: boolean }> {
  if (!response.body) return { data: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const body = new BodyBuffer(maxBytes);
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline.whenAborted]);
      if (done) break;
      if (!body.append(value)) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    throw toFetchError(error, url, deadline);
  } finally {
    // Cancelling stops decompression and drops the connection instead of draining a bomb.
    if (truncated || deadline.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return { data: body.bytes(), truncated };
}

/** A byte buffer capped at `max` bytes that grows by doubling. */
export class BodyBuffer {
  #data = new Uint8Array(0);
  #size = 0;
  constructor(private readonly max: number) {}

  /** Bytes held so far. */
  get size(): number {
    return this.#size;
  }

  /** Appends what fits; false when `chunk` did not fit whole (the rest is dropped). */
  append(chunk: Uint8Array): boolean {
    const room = this.max - this.#size;
    const take = Math.min(chunk.byteLength, Math.max(room, 0));
    if (this.#size + take > this.#data.byteLength) {
      const next = new Uint8Array(
        Math.min(this.max, Math.max(this.#size + take, this.#data.byteLength * 2, 16 * 1024)),
      );
      next.set(this.#data.subarray(0, this.#size));
      this.#data = next;
    }
    this.#data.set(take === chunk.byteLength ? chunk : chunk.subarray(0, take), this.#size);
    this.#size += take;
    return take === chunk.byteLength;
  }

  /** The bytes held (a view of the buffer when it is full, else a copy of exactly `size`). */
  bytes(): Uint8Array {
    return this.#size === this.#data.byteLength ? this.#data : this.#data.slice(0, this.#size);
  }
}

function requestHeaders(userAgent: string, o: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = { ...DEFAULT_HEADERS, "user-agent": userAgent };
  for (const [name, value] of Object.entries(o.headers ?? {})) headers[name.toLowerCase()] = value;
  if (o.userAgent) headers["user-agent"] = o.userAgent;
  return headers;
}

function responseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  // Headers iteration yields lowercased names; set-cookie comes once per cookie.
  for (const [name, value] of headers) out[name] = name in out ? `${out[name]}, ${value}` : value;
  return out;
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
]);

const NETWORK_MESSAGES: Record<string, string> = {
  UND_ERR_HEADERS_OVERFLOW: "response headers larger than 64 KiB (UND_ERR_HEADERS_OVERFLOW)",
  ECONNREFUSED: "connection refused (ECONNREFUSED)",
  ECONNRESET: "connection reset (ECONNRESET)",
  UND_ERR_SOCKET: "connection closed by the server (UND_ERR_SOCKET)",
};

/** Maps whatever undici, node:net or node:tls threw to a FetchError for `url`. */
function toFetchError(error: unknown, url: string, deadline: Deadline): FetchError {
  // Our own errors (thrown in connect or used as abort reason) travel in `cause` chains.
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as Error).cause, depth++) {
    if (e instanceof FetchError) {
      if (e.kind === "timeout" && deadline.aborted) break;
      return new FetchError(e.kind, e.message, url);
    }
  }
  if (deadline.aborted) return new FetchError("timeout", deadline.reason, url);
  const codes: string[] = [];
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    messages.push(errorText(e));
  }
  if (codes.some((c) => TIMEOUT_CODES.has(c))) {
    return new FetchError("timeout", `Timed out (${codes.join(", ")})`, url);
  }
  const known = codes.map((c) => NETWORK_MESSAGES[c]).find(Boolean);
  const detail = known ?? (codes.length ? codes.join(", ") : messages.slice(-1)[0]);
  return new FetchError("network", `Request failed: ${detail}`, url);
}

function blockedError(ip: string, url: string): FetchError {
  return new FetchError("blocked", `Address ${ip} is not public (${classifyAddress(ip)})`, url);
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

function originKey(protocol: string, hostname: string, port: string): string {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return `${protocol}//${host}:${port || (protocol === "https:" ? "443" : "80")}`;
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.trunc(value))) : max;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
