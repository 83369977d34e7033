/** Shared types of the guarded fetcher (implementation in guarded_fetch.ts). */

/** Options of one outbound request. */
export interface FetchOptions {
  /**
   * The scanner sends only GET and HEAD. POST exists for the challenge verifier (an operator-set
   * URL); a POST never follows redirects.
   */
  method?: "GET" | "HEAD" | "POST";
  /** Request body of a POST, e.g. a URLSearchParams form. */
  body?: string | URLSearchParams;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Overrides the fetcher's default User-Agent (e.g. to look like an AI crawler). */
  userAgent?: string;
  /** Redirects to follow; default 5 (the cap: higher values are clamped to 5). */
  maxRedirects?: number;
  /** Body bytes kept (after decompression); the rest is cut, never buffered. Default 5 MB. */
  maxBytes?: number;
  /** Time budget for this request including redirects and body; default from config. */
  timeoutMs?: number;
  /** Aborts the request, e.g. when the whole scan's deadline passes. */
  signal?: AbortSignal;
  /**
   * Which SCAN_RESOLVE-mapped hosts this request may reach, asked with the host in lower case
   * without a trailing dot: a mapped host it says no to is refused as "blocked" at any hop (the
   * first URL or a redirect), before any connection. Absent: every mapped host (the scan's own
   * requests). Hosts SCAN_RESOLVE does not map are never asked: the address guard rules them.
   * The render gate sets it (lib/engines/render/request_gate.ts): a page's scripts reach no
   * mapped host but the scanned site's.
   */
  mayReachMapped?: (host: string) => boolean;
}

/** One redirect that was followed. */
export interface RedirectHop {
  url: string;
  status: number;
  location: string;
}

/** What came back. Non-2xx statuses are results, not errors. */
export interface FetchResult {
  /** The URL that was asked for. */
  url: string;
  /** The URL of the last response after redirects. */
  finalUrl: string;
  status: number;
  /** Response headers of the final response, names lowercased; repeated headers joined by ", ". */
  headers: Record<string, string>;
  /**
   * The separate lines of headers whose lines mean something on their own (X-Robots-Tag), in
   * order, names lowercased; absent for a result not fetched by the guarded fetcher.
   */
  headerLines?: Record<string, string[]>;
  /** The body decoded as text (charset from Content-Type, else UTF-8; invalid bytes replaced). */
  body: string;
  /** Body bytes received and kept (after decompression). */
  bytes: number;
  /** True when the body was cut at maxBytes. */
  truncated: boolean;
  redirects: RedirectHop[];
  /** Milliseconds from the first request to the final response's headers. */
  ttfbMs: number;
  /** Milliseconds from the first request to the end of the body. */
  totalMs: number;
  /** The IP address actually connected to for the final response. */
  remoteAddress: string;
}

/** Why a request did not produce a response. */
export type FetchErrorKind =
  | "invalid_url" // not parseable, or not http(s), or has userinfo
  | "blocked" // resolves to / connects to a non-public address
  | "dns" // host name does not resolve
  | "timeout" // per-request or per-scan deadline passed
  | "too_many_redirects"
  | "network"; // connection refused/reset, TLS error, malformed response

/** The only error the guarded fetcher throws. */
export class FetchError extends Error {
  override name = "FetchError";
  constructor(
    public readonly kind: FetchErrorKind,
    message: string,
    public readonly url: string,
  ) {
    super(message);
  }
}

/** The one way this codebase talks to the outside world. */
export interface GuardedFetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /** Releases pooled connections. */
  close(): Promise<void>;
}
