/**
 * Where the guarded fetcher (guarded_fetch.ts) may connect: the synchronous URL checks, the DNS
 * resolution that refuses a name when any of its addresses is not public, and the SCAN_RESOLVE
 * map lookup. The fetcher calls these before every connection and every redirect hop; the API
 * calls them to refuse a scan up front.
 * @module
 */
import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import type { ResolveTarget } from "../config.ts";
import { classifyAddress, isPublicAddress, parseHostLiteral } from "./ip_policy.ts";
import { FetchError } from "./types.ts";

/** Gives up on a DNS answer after this long (ResolveOptions.timeoutMs overrides it). */
const DNS_TIMEOUT_MS = 5_000;

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

/** The system resolver: every A and AAAA answer, in the order the system gives them. */
export async function defaultLookup(hostname: string): Promise<LookupAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** The "blocked" error for a non-public address. */
export function blockedError(ip: string, url: string): FetchError {
  return new FetchError("blocked", `Address ${ip} is not public (${classifyAddress(ip)})`, url);
}

/** localhost and *.localhost (RFC 6761), a trailing dot ignored. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/** The message of an error, or the thing as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
