/**
 * Builds the Hono app from the route modules. Tests call `app.request()` on it with no socket;
 * main.ts serves it. Errors are typed in lib and mapped to HTTP here, in one place.
 */
import { Hono } from "hono";
import { getConnInfo } from "hono/deno";
import type { Context } from "hono";
import type { ChallengeProvider } from "./challenge.ts";
import { clientIp } from "./client_ip.ts";
import type { Config } from "./config.ts";
import { HttpError, MethodNotAllowedError, NotFoundError } from "./errors.ts";
import type { LookupFunction } from "./net/guarded_fetch.ts";
import type { ServiceDef } from "./service.ts";
import type { Store } from "./store.ts";
import { securityHeaders } from "./security_headers.ts";
import { etagMatches, ReportCache } from "./report_cache.ts";
import { scanRoutes } from "../routes/api/scan.ts";
import { reportRoutes } from "../routes/api/report/[domain].ts";
import { mcpRoutes } from "../routes/mcp.ts";
import { challengeRoutes } from "../routes/api/challenge.ts";
import { staticRoutes } from "../routes/static.ts";
import { indexRoutes } from "../routes/index.tsx";
import { reportPageRoutes } from "../routes/report/[domain].tsx";
import { badgeRoutes } from "../routes/badge/[domain].svg.ts";
import { docsRoutes } from "../routes/docs.tsx";
import { openApiRoutes } from "../routes/openapi.json.ts";
import { healthRoutes } from "../routes/healthz.ts";
import { type ActiveSession, sessionMiddleware } from "./sessions.ts";
import { signupRoutes } from "../routes/account/signup.tsx";
import { loginRoutes } from "../routes/account/login.tsx";
import { logoutRoutes } from "../routes/account/logout.ts";
import { accountKeyRoutes } from "../routes/account/keys.ts";
import { accountRoutes } from "../routes/account/index.tsx";
import { adminLoginRoutes } from "../routes/admin/login.tsx";
import { adminLogoutRoutes } from "../routes/admin/logout.ts";
import { adminKeyRoutes } from "../routes/admin/keys.ts";
import { adminRoutes } from "../routes/admin/index.tsx";

/** Everything the routes need, injected so tests control time, DNS and the challenge. */
export interface AppDeps {
  config: Config;
  store: Store;
  service: ServiceDef;
  /** The browser challenge (Turnstile or the self-hosted ALTCHA). */
  challenge: ChallengeProvider;
  /** Milliseconds since the epoch (tests inject a clock). */
  now: () => number;
  /** DNS resolver for the "resolves to a public address" check. */
  lookup?: LookupFunction;
  /** Structured log sink (one JSON object per event). */
  log?: (entry: Record<string, unknown>) => void;
  /** Serialised report responses (main.ts shares one with the worker, which invalidates it). */
  reportCache?: ReportCache;
}

/** Hono's context variables set by our middleware. */
export type AppEnv = {
  Variables: {
    clientIp: string;
    /** Set by the session middleware when a client account is signed in. */
    signedIn?: boolean;
    /** The signed-in client session (lib/sessions.ts), set with `signedIn`. */
    session?: ActiveSession;
  };
};

/** Builds the application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders());
  app.use("*", async (c, next) => {
    c.set("clientIp", remoteIp(c, deps.config.trustProxy));
    await next();
  });
  app.use("*", sessionMiddleware(deps));
  app.route("/api/scan", scanRoutes(deps));
  app.route("/api/challenge", challengeRoutes(deps));
  app.route("/static", staticRoutes());
  app.route("/", indexRoutes(deps));
  app.route("/report", reportPageRoutes(deps));
  app.route("/badge", badgeRoutes(deps));
  app.route("/docs", docsRoutes(deps));
  app.route("/openapi.json", openApiRoutes(deps));
  app.route("/healthz", healthRoutes(deps));
  app.route("/api/report", reportRoutes(deps));
  app.route("/mcp", mcpRoutes(deps));
  app.route("/account/signup", signupRoutes(deps));
  app.route("/account/login", loginRoutes(deps));
  app.route("/account/logout", logoutRoutes(deps));
  app.route("/account/keys", accountKeyRoutes(deps));
  app.route("/account", accountRoutes(deps));
  app.route("/admin/login", adminLoginRoutes(deps));
  app.route("/admin/logout", adminLogoutRoutes(deps));
  app.route("/admin/keys", adminKeyRoutes(deps));
  app.route("/admin", adminRoutes(deps));
  app.notFound(() => {
    throw new NotFoundError();
  });
  app.onError((error, c) => toResponse(error, c, deps));
  return app;
}

/**
 * The request handler for Deno.serve: report reads that the report cache holds are answered
 * before routing, with the same body and headers the app produced for them; everything else goes
 * to the app. The app fills the cache on 200 report responses.
 */
export function createHandler(
  app: Hono<AppEnv>,
  cache: ReportCache,
): (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  // Not an async function: a cache hit is answered synchronously, which Deno.serve handles
  // noticeably faster than a promise.
  return (req, info) => {
    const domain = req.method === "GET" ? reportDomainOf(req.url) : null;
    if (domain) {
      const hit = cache.get(domain);
      if (hit?.headers) {
        if (etagMatches(req.headers.get("if-none-match"), hit.etag)) {
          const headers = new Headers(hit.headers);
          headers.delete("content-type");
          return new Response(null, { status: 304, headers });
        }
        return new Response(hit.body, { status: 200, headers: hit.headers });
      }
    }
    return Promise.resolve(app.fetch(req, info)).then((res) => {
      if (domain && res.status === 200) {
        const etag = res.headers.get("etag") ?? "";
        cache.setHeaders(
          domain,
          etag,
          [...res.headers].filter(([k]) => k !== "date" && k !== "content-length"),
        );
      }
      return res;
    });
  };
}

/** The domain of a `/api/report/<domain>.json` URL in its normal spelling, or null. */
function reportDomainOf(url: string): string | null {
  // Cheaper than new URL(): the path starts at the first "/" after the scheme's "//".
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", start);
  const m = (q < 0 ? url.slice(start) : url.slice(start, q)).match(REPORT_PATH);
  return m ? fastDomain(m[1]) : null;
}

const REPORT_PATH = /^\/api\/report\/([a-z0-9.-]{1,253})\.json$/;

/** Only already-normal domains take the fast path; any other spelling goes through the app. */
function fastDomain(name: string): string | null {
  return name.startsWith("www.") || name.endsWith(".") || !name.includes(".") ? null : name;
}

/** Registers a 405 for every method a path does not serve. */
export function allowOnly(app: Hono<AppEnv>, path: string, allow: string[]): void {
  app.all(path, () => {
    throw new MethodNotAllowedError(allow);
  });
}

function remoteIp(c: Context, trustProxy: boolean): string {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // app.request() in tests has no connection; X-Forwarded-For (with TRUST_PROXY) or "unknown".
  }
  return clientIp(remote, c.req.header("x-forwarded-for"), trustProxy);
}

function toResponse(error: Error, c: Context, deps: AppDeps): Response {
  if (error instanceof HttpError) {
    return c.json(error.body(), error.status as 400, error.headers());
  }
  // A client that closes its connection before sending the body it announced (Content-Length
  // larger than what came) makes any body reader throw BadResource: the request's fault, a 400.
  if (error instanceof Deno.errors.BadResource && /request body/i.test(error.message)) {
    return c.json({ error: "Request body ended before it was complete" }, 400);
  }
  // Hono's own HTTPException (e.g. from middleware) keeps its status but gets our JSON shape.
  const status = (error as { status?: number }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return c.json({ error: error.message || "Bad request" }, status as 400);
  }
  (deps.log ?? ((e) => console.error(JSON.stringify(e))))({
    event: "http.error",
    path: c.req.path,
    method: c.req.method,
    error: error.message,
  });
  return c.json({ error: "Internal error" }, 500);
}
