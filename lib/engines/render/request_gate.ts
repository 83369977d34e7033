/**
 * The only way a rendered page's requests are answered: each one the browser makes (the page,
 * its iframes, scripts, stylesheets, fetch/XHR, redirects) is either fetched by the renderer
 * through the scan's guarded fetcher and handed to the browser (`route.fulfill`), or refused
 * (`route.abort`). The browser never sends it itself. For the scanned site the scan's politeness
 * holds (at most 2 in flight, Crawl-delay: the polite fetcher passed in) and robots.txt is obeyed
 * for our own agent; images, media, fonts, beacons, event streams, prefetches and every method but
 * GET/HEAD (and POST to the site itself) are refused. WebSockets are closed by the session
 * (lib/engines/render/session.ts). Each page has a request and a byte budget.
 *
 * SCAN_RESOLVE (host names a self-hoster maps to fixed addresses, past the address guard) holds
 * for the scanned site's own hosts only ({@link scanHostsOf}): any other mapped host is refused,
 * as a private address is, at every hop of every request, so a page's scripts cannot reach an
 * intranet host mapped for scanning it.
 */
import type { Page, Request, Route } from "playwright-core";
import { FetchError, type FetchResult, type GuardedFetcher } from "../../kit/net/types.ts";

/** What the gate needs from the scan. */
export interface GateOptions {
  /** The scan's fetcher: guarded, and polite to the scanned site. */
  fetcher: GuardedFetcher;
  /**
   * The only hosts SCAN_RESOLVE applies to in this render ({@link scanHostsOf}, lower case): a
   * request, or a redirect of one, to any other host it maps is refused ({@link MAPPED_HOST}).
   */
  scanHosts: readonly string[];
  /** True for the scanned site's own host names (robots.txt and POST apply there). */
  isSite(host: string): boolean;
  /** robots.txt's verdict for our own agent on a URL of the site. */
  robotsAllows(url: string): boolean;
  /** Requests served at most per page. */
  maxRequests: number;
  /** Body bytes served at most per page (all responses together). */
  maxPageBytes: number;
  /** Body bytes of one response at most. */
  maxBodyBytes: number;
  /** Time budget of one request. */
  requestTimeoutMs: number;
}

/** What one page's requests came to. */
export interface PageRequests {
  served: number;
  refused: number;
  failed: number;
  refusedKinds: Record<string, number>;
  /** Requests being fetched right now (the page is quiet when this stays 0). */
  inFlight: number;
  /** The last main-frame document served: the server HTML of the page. */
  document: FetchResult | null;
  bytes: number;
}

/** Resource types answered; every other type is refused. */
const SERVED = new Set(["document", "script", "stylesheet", "xhr", "fetch"]);
/** Types whose body must be whole to be of any use (a cut script is a broken script). */
const WHOLE = new Set(["script", "stylesheet", "xhr", "fetch"]);
/** Response headers never handed on (the body is already decoded; cookies are not kept). */
const DROPPED_HEADERS = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "set-cookie",
  "alt-svc",
  "strict-transport-security",
  "report-to",
  "nel",
  "link",
  "refresh",
]);
/** Request headers handed on to the fetcher (the rest is ours: User-Agent, Accept-Language). */
const KEPT_REQUEST_HEADERS = ["accept", "content-type", "x-requested-with"];
/** Scripts and stylesheets are fetched once per scan (pages of a site share them). */
const CACHE_BYTES = 16 * 1024 * 1024;
/** The refusal counted for a request to a host SCAN_RESOLVE maps for something else. */
export const MAPPED_HOST = "host mapped by SCAN_RESOLVE, not the scanned site";

/**
 * The hosts a render may reach through SCAN_RESOLVE, from the scan's own fetch of the page: the
 * host it asked for, and each host its redirects went to (lower case, without a trailing dot).
 * Nothing else counts, not even the site's own subdomains (www. included) unless the scan was
 * redirected there: a self-hoster maps a host to scan it, and a scanned page must not choose which
 * other mapped host its scripts reach.
 */
export function scanHostsOf(
  scanned: Pick<FetchResult, "url" | "finalUrl" | "redirects">,
): string[] {
  const hosts = new Set<string>();
  const urls = [scanned.url, ...scanned.redirects.flatMap((r) => [r.url, r.location])];
  for (const href of [...urls, scanned.finalUrl]) {
    try {
      hosts.add(normalHost(new URL(href).hostname));
    } catch {
      // Not a URL: no host to add (the fetcher never followed it).
    }
  }
  return [...hosts];
}

/** A host name as SCAN_RESOLVE keys it: lower case, no trailing dot. */
function normalHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/** The gate of one scan's browser context. */
export class RequestGate {
  readonly #options: GateOptions;
  /**
   * Per tab: its counts, its deadline, and the documents fetched ahead of its navigations (by
   * final URL), each served once to that tab (two tabs may fetch the same URL at once).
   */
  readonly #pages = new Map<
    Page,
    { requests: PageRequests; signal: AbortSignal; ahead: Map<string, FetchResult> }
  >();
  readonly #cache = new Map<string, Promise<FetchResult>>();
  #cacheBytes = 0;
  readonly #scanHosts: ReadonlySet<string>;
  /** Mapped hosts the fetcher was told not to reach (their refusals are counted as such). */
  readonly #refusedMapped = new Set<string>();
  /** The fetcher's question for every request of the render (FetchOptions.mayReachMapped). */
  readonly #mayReachMapped = (host: string): boolean => {
    if (this.#scanHosts.has(host)) return true;
    this.#refusedMapped.add(host);
    return false;
  };

  constructor(options: GateOptions) {
    this.#options = options;
    this.#scanHosts = new Set(options.scanHosts.map(normalHost));
  }

  /** Starts counting a page's requests; `signal` aborts them (the page's deadline). */
  track(page: Page, signal: AbortSignal): PageRequests {
    const requests = noRequests();
    this.#pages.set(page, { requests, signal, ahead: new Map() });
    return requests;
  }

  /** Stops tracking a page. */
  forget(page: Page): void {
    this.#pages.delete(page);
  }

  /**
   * Fetches a page's document before its tab navigates (the fetcher follows its redirects, each
   * hop checked): the tab then navigates to the final URL, so its address and relative links are
   * right, and is served this answer. A redirect is never handed to the browser: a redirect a
   * fulfilled response carries is followed by the browser's own network, outside this gate.
   * Throws the fetcher's {@link FetchError}, or a plain Error naming a refusal.
   */
  async fetchDocument(page: Page, url: string): Promise<FetchResult> {
    const tracked = this.#pages.get(page);
    if (!tracked) throw new Error("the tab is not tracked");
    const { requests, signal, ahead } = tracked;
    const why = this.#refusalOf(url, "document", "GET", requests);
    if (why) throw new Error(`the page's request was refused (${why})`);
    requests.inFlight++;
    try {
      const result = await this.#options.fetcher.fetch(url, {
        maxBytes: Math.min(this.#options.maxBodyBytes, this.#options.maxPageBytes),
        timeoutMs: this.#options.requestTimeoutMs,
        signal,
        mayReachMapped: this.#mayReachMapped,
      });
      const final = this.#refusalOf(result.finalUrl, "document", "GET", requests);
      if (final) throw new Error(`the page redirects to a URL that is refused (${final})`);
      requests.served++;
      requests.bytes += result.bytes;
      requests.document = result;
      ahead.set(result.finalUrl, result);
      return result;
    } finally {
      requests.inFlight--;
    }
  }

  /** The route handler (for `context.route("**\/*", ...)`). Never throws. */
  readonly handle = async (route: Route): Promise<void> => {
    const request = route.request();
    const page = pageOf(request);
    const tracked = page ? this.#pages.get(page) : undefined;
    if (!tracked) {
      // A request of no page we render (a popup, a worker): nothing is served to it.
      await route.abort("blockedbyclient").catch(() => {});
      return;
    }
    const { requests, signal } = tracked;
    const refuse = async (kind: string) => {
      requests.refused++;
      requests.refusedKinds[kind] = (requests.refusedKinds[kind] ?? 0) + 1;
      await route.abort("blockedbyclient").catch(() => {});
    };
    const ahead = request.isNavigationRequest() ? tracked.ahead.get(request.url()) : undefined;
    if (ahead) {
      tracked.ahead.delete(request.url());
      await route.fulfill(fulfilment(request, ahead)).catch(() => {});
      return;
    }
    const why = this.#refusalOf(
      request.url(),
      request.resourceType(),
      request.method(),
      requests,
    );
    if (why) return await refuse(why);
    requests.inFlight++;
    try {
      const result = await this.#fetch(request, requests, signal);
      if (result === "refused-body") return await refuse("over the byte budget");
      await this.#answer(route, request, requests, result);
    } catch (error) {
      if (error instanceof FetchError && error.kind === "blocked") {
        await refuse(this.#isRefusedMapped(error.url) ? MAPPED_HOST : "non-public address");
      } else if (error instanceof FetchError && error.kind === "invalid_url") {
        await refuse("not an http(s) URL");
      } else {
        requests.failed++;
        const code = error instanceof FetchError && error.kind === "timeout"
          ? "timedout"
          : error instanceof FetchError && error.kind === "dns"
          ? "namenotresolved"
          : "failed";
        await route.abort(code).catch(() => {});
      }
    } finally {
      requests.inFlight--;
    }
  };

  /** True when `href`'s host was refused for being mapped by SCAN_RESOLVE. */
  #isRefusedMapped(href: string): boolean {
    try {
      return this.#refusedMapped.has(normalHost(new URL(href).hostname));
    } catch {
      return false;
    }
  }

  /** Why a request is refused before any fetch, or null to serve it. */
  #refusalOf(
    href: string,
    type: string,
    method: string,
    requests: PageRequests,
  ): string | null {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return "not an http(s) URL";
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "not an http(s) URL";
    if (!SERVED.has(type)) return type === "other" ? "prefetch or other" : type;
    const site = this.#options.isSite(url.hostname.toLowerCase());
    if (method === "POST" && !site) return "POST to another site";
    if (method !== "GET" && method !== "HEAD" && method !== "POST") return `${method} request`;
    if (site && !this.#options.robotsAllows(url.href)) return "robots.txt";
    if (requests.served >= this.#options.maxRequests) return "over the request budget";
    if (requests.bytes >= this.#options.maxPageBytes) return "over the byte budget";
    return null;
  }

  async #fetch(
    request: Request,
    requests: PageRequests,
    signal: AbortSignal,
  ): Promise<FetchResult | "refused-body"> {
    const url = request.url();
    const method = request.method() as "GET" | "HEAD" | "POST";
    const type = request.resourceType();
    const headers: Record<string, string> = {};
    const given = request.headers();
    for (const name of KEPT_REQUEST_HEADERS) if (given[name]) headers[name] = given[name];
    const maxBytes = Math.min(
      this.#options.maxBodyBytes,
      this.#options.maxPageBytes - requests.bytes,
    );
    const fetchIt = () =>
      this.#options.fetcher.fetch(url, {
        method,
        headers,
        body: method === "POST" ? request.postData() ?? "" : undefined,
        maxBytes,
        timeoutMs: this.#options.requestTimeoutMs,
        signal,
        mayReachMapped: this.#mayReachMapped,
      });
    const cacheable = method === "GET" && (type === "script" || type === "stylesheet");
    let result: FetchResult;
    if (cacheable) {
      let pending = this.#cache.get(url);
      if (!pending) {
        pending = fetchIt();
        this.#cache.set(url, pending);
        pending.then(
          (r) => {
            this.#cacheBytes += r.bytes;
            if (r.status !== 200 || r.truncated || this.#cacheBytes > CACHE_BYTES) {
              this.#cache.delete(url);
            }
          },
          () => this.#cache.delete(url),
        );
      }
      result = await pending;
    } else {
      result = await fetchIt();
    }
    if (result.truncated && WHOLE.has(type)) return "refused-body";
    return result;
  }

  async #answer(
    route: Route,
    request: Request,
    requests: PageRequests,
    result: FetchResult,
  ): Promise<void> {
    requests.served++;
    requests.bytes += result.bytes;
    const page = pageOf(request);
    if (request.isNavigationRequest() && page && request.frame() === page.mainFrame()) {
      requests.document = result;
    }
    await route.fulfill(fulfilment(request, result));
  }
}

/**
 * The answer handed to the browser. Redirects were followed by the fetcher (a POST's is not, and
 * its Location is dropped here): a redirect in a fulfilled answer is followed by the browser's own
 * network, outside this gate.
 */
function fulfilment(
  request: Request,
  result: FetchResult,
): { status: number; headers: Record<string, string>; body: string } {
  const headers = responseHeaders(result.headers);
  delete headers["location"];
  return {
    status: result.status,
    headers,
    body: request.method() === "HEAD" ? "" : result.body,
  };
}

/** The counts of a page that made no request yet. */
export function noRequests(): PageRequests {
  return {
    served: 0,
    refused: 0,
    failed: 0,
    refusedKinds: {},
    inFlight: 0,
    document: null,
    bytes: 0,
  };
}

/** The page a request belongs to, or null (a service worker's or a closed page's). */
function pageOf(request: Request): Page | null {
  try {
    return request.frame().page();
  } catch {
    return null;
  }
}

/** Response headers as the browser gets them: the body is text now, in UTF-8. */
function responseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!DROPPED_HEADERS.has(name)) out[name] = value;
  }
  const type = out["content-type"];
  if (
    type &&
    /^(text\/|application\/(json|javascript|xml|xhtml\+xml|ld\+json)|[^;]*\+json|[^;]*\+xml)/i.test(
      type,
    )
  ) {
    out["content-type"] = `${type.split(";")[0].trim()}; charset=utf-8`;
  }
  return out;
}
