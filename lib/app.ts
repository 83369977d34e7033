/**
 * Builds the Hono app from the route modules. Tests call `app.request()` on it with no socket;
 * main.ts serves it. Errors are typed in lib and mapped to HTTP here, in one place.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { NotFoundError } from "./errors.ts";
import { type AppDeps, type AppEnv, requestIp } from "./web/context.ts";
import { errorAnswer } from "./web/errors.ts";
import { SECURITY_HEADERS, securityHeaders } from "./web/security_headers.ts";
import { etagMatches, type ReportCache } from "./storage/report_cache.ts";
import { scanPost, scanRoutes } from "../routes/api/scan.ts";
import { validateRoutes } from "../routes/api/validate.ts";
import { validatePageRoutes } from "../routes/validate.tsx";
import { reportRoutes } from "../routes/api/report/[domain].ts";
import { reportHistoryRoutes } from "../routes/api/report/history.ts";
import { scanStatusRoutes } from "../routes/api/scans/[id].ts";
import { reportExportRoutes } from "../routes/api/report/[domain]_export.ts";
import { compareJsonRoutes } from "../routes/api/compare.json.ts";
import { comparePageRoutes } from "../routes/compare.tsx";
import { mcpRoutes } from "../routes/mcp.ts";
import { challengeRoutes } from "../routes/api/challenge.ts";
import { staticRoutes } from "../routes/static.ts";
import { indexRoutes } from "../routes/index.tsx";
import { reportPageRoutes } from "../routes/report/[domain].tsx";
import { badgeRoutes } from "../routes/badge/[domain].svg.ts";
import { docsRoutes } from "../routes/docs.tsx";
import { learnRoutes } from "../routes/learn.tsx";
import { openApiRoutes } from "../routes/openapi.json.ts";
import { healthRoutes } from "../routes/healthz.ts";
import { sessionMiddleware } from "./web/sessions.ts";
import { compressPages } from "./web/compress.ts";
import { pageErrors } from "./ui/error_page.tsx";
import { routeGroup } from "./web/groups.ts";
import { withMethodNotAllowed } from "./web/methods.ts";
import { signupRoutes } from "../routes/account/signup.tsx";
import { loginRoutes } from "../routes/account/login.tsx";
import { logoutRoutes } from "../routes/account/logout.ts";
import { accountKeyRoutes } from "../routes/account/keys.ts";
import { accountRoutes } from "../routes/account/index.tsx";
import { accountWatchRoutes } from "../routes/account/watches.ts";
import { accountAnswerRoutes } from "../routes/account/answers.ts";
import { watchRoutes } from "../routes/api/watches.ts";
import { answerRoutes } from "../routes/api/answers.ts";
import { reportFeedRoutes } from "../routes/api/report/[domain]_feed.ts";
import { adminLoginRoutes } from "../routes/admin/login.tsx";
import { adminLogoutRoutes } from "../routes/admin/logout.ts";
import { adminKeyRoutes } from "../routes/admin/keys.ts";
import { adminRoutes } from "../routes/admin/index.tsx";

/** Builds the application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // First, so it sees every other middleware's headers (Cache-Control, Set-Cookie) on the way out.
  app.use("*", compressPages());
  app.use("*", securityHeaders());
  app.use("*", async (c, next) => {
    // Deno.serve's connection info is Hono's `env` (absent under app.request() in tests).
    c.set("clientIp", requestIp(c.req.raw, c.env, deps.config.trustProxy));
    await next();
  });
  app.use("*", sessionMiddleware(deps));
  // Every route module is mounted with its 405s derived from its own routes (lib/web/methods.ts).
  const mount = (path: string, routes: Hono<AppEnv>) =>
    app.route(path, withMethodNotAllowed(routes));
  mount("/api/scan", scanRoutes(deps));
  if (deps.service.validatesCode) {
    mount("/api/validate", validateRoutes(deps));
    mount("/validate", validatePageRoutes(deps));
  }
  if (deps.service.comparesSites) {
    mount("/api/compare.json", compareJsonRoutes(deps));
    mount("/compare", comparePageRoutes(deps));
  }
  mount("/api/challenge", challengeRoutes(deps));
  mount("/static", staticRoutes());
  mount("/", indexRoutes(deps));
  mount("/report", reportPageRoutes(deps));
  mount("/badge", badgeRoutes(deps));
  mount("/docs", docsRoutes(deps));
  mount("/learn", learnRoutes(deps));
  mount("/openapi.json", openApiRoutes(deps));
  mount("/healthz", healthRoutes(deps));
  mount("/api/report", reportFeedRoutes(deps));
  mount("/api/report", reportHistoryRoutes(deps));
  mount("/api/report", reportExportRoutes(deps));
  mount("/api/report", reportRoutes(deps));
  mount("/api/scans", scanStatusRoutes(deps));
  mount("/api/watches", watchRoutes(deps));
  mount("/api/answers", answerRoutes(deps));
  mount("/mcp", mcpRoutes(deps));
  // The two route groups, each declaring once its error page, cross-site guard and the session
  // its signed-in routes need (lib/web/groups.ts).
  app.route(
    "/account",
    routeGroup(deps, {
      errors: pageErrors,
      session: { kind: "client", signIn: "/account/login" },
      routes: [
        { path: "/signup", routes: signupRoutes },
        { path: "/login", routes: loginRoutes },
        { path: "/logout", routes: logoutRoutes },
        { path: "/keys", routes: accountKeyRoutes, signedIn: ["POST"] },
        { path: "/watches", routes: accountWatchRoutes, signedIn: ["POST"] },
        { path: "/answers", routes: accountAnswerRoutes, signedIn: ["POST"] },
        { path: "/", routes: accountRoutes, signedIn: ["GET", "HEAD"] },
      ],
    }),
  );
  app.route(
    "/admin",
    routeGroup(deps, {
      errors: pageErrors,
      session: { kind: "admin", signIn: "/admin/login" },
      routes: [
        { path: "/login", routes: adminLoginRoutes },
        { path: "/logout", routes: adminLogoutRoutes },
        { path: "/keys", routes: adminKeyRoutes, signedIn: ["POST"] },
        { path: "/", routes: adminRoutes, signedIn: ["GET", "HEAD"] },
      ],
    }),
  );
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
  /** The app's dependencies: with them, POST /api/scan skips routing (see scanDirect). */
  deps?: AppDeps,
): (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  // Not an async function: a cache hit is answered synchronously, which Deno.serve handles
  // noticeably faster than a promise.
  return (req, info) => {
    if (deps && req.method === "POST" && pathOf(req.url) === "/api/scan") {
      return scanDirect(req, info, deps);
    }
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

/**
 * POST /api/scan without routing or middleware, for the endpoint that scripts call hardest: the
 * same function as the route (routes/api/scan.ts scanPost), the same client IP rule, the same
 * error answers, and the REST security headers on every answer.
 */
async function scanDirect(
  req: Request,
  info: Deno.ServeHandlerInfo | undefined,
  deps: AppDeps,
): Promise<Response> {
  try {
    return await scanPost(req, requestIp(req, info, deps.config.trustProxy), deps);
  } catch (error) {
    const a = errorAnswer(error, { path: "/api/scan", method: "POST" }, deps);
    return new Response(JSON.stringify(a.body), {
      status: a.status,
      headers: [
        ...Object.entries(a.headers),
        ["Content-Type", "application/json"],
        ...SECURITY_HEADERS,
      ],
    });
  }
}

/** The path of a request URL, without the query (cheaper than new URL()). */
function pathOf(url: string): string {
  // The path starts at the first "/" after the scheme's "//".
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/**
 * The domain of a `/api/report/<domain>.json` URL in its normal spelling, or null. A download
 * (`?download=1`, which adds Content-Disposition) is not the cached answer: it goes to the app.
 */
function reportDomainOf(url: string): string | null {
  const q = url.indexOf("?");
  if (q >= 0 && url.includes("download", q)) return null;
  const m = pathOf(url).match(REPORT_PATH);
  return m ? fastDomain(m[1]) : null;
}

const REPORT_PATH = /^\/api\/report\/([a-z0-9.-]{1,253})\.json$/;

/** Only already-normal domains take the fast path; any other spelling goes through the app. */
function fastDomain(name: string): string | null {
  return name.startsWith("www.") || name.endsWith(".") || !name.includes(".") ? null : name;
}

function toResponse(error: Error, c: Context, deps: AppDeps): Response {
  const a = errorAnswer(error, { path: c.req.path, method: c.req.method }, deps);
  // c.json keeps the headers the route had set (e.g. Access-Control-Allow-Origin on a 404).
  return c.json(a.body, a.status as 400, a.headers);
}
