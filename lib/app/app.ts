/**
 * Builds the Hono app from the route list (lib/app/routes.ts). Tests call `app.request()` on it with no
 * socket; main.ts serves it. Errors are typed in lib and mapped to HTTP here, in one place.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { NotFoundError } from "../kit/errors.ts";
import { type AppDeps, type AppEnv, requestIp } from "../kit/web/context.ts";
import { errorAnswer } from "../kit/web/errors.ts";
import { SECURITY_HEADERS, securityHeaders } from "../kit/web/security_headers.ts";
import { etagMatches, type ReportCache } from "../kit/storage/report_cache.ts";
import { scanPost, scanRoute } from "../features/report/routes/api/scan.ts";
import { sessionMiddleware } from "../kit/web/sessions.ts";
import { compressPages } from "../kit/web/compress.ts";
import { pageErrors } from "../kit/web/page_errors.tsx";
import { accountPageErrors } from "../features/accounts/account_dashboard.ts";
import { notFoundPage } from "../kit/web/not_found.tsx";
import { type GroupSpec, inGroup, routeGroup } from "../kit/web/groups.ts";
import { createRecordViewGate } from "../kit/web/record_views.ts";
import { routeApp, type RouteDef, served } from "../kit/web/route.ts";
import type { ServerDeps } from "./deps.ts";
import { ROUTES } from "./routes.ts";
import { PATHS } from "../kit/report_urls.ts";

/**
 * The two route groups, each declaring once its error page, cross-site guard and the session its
 * signed-in routes need (lib/kit/web/groups.ts); a route belongs to the group its path starts with.
 */
export const GROUPS: readonly GroupSpec[] = [
  {
    prefix: PATHS.account,
    // A section's refused form shows the account page again (lib/kit/web/account_sections.ts).
    errors: accountPageErrors,
    session: { kind: "client", signIn: PATHS.accountLogin },
  },
  {
    prefix: PATHS.admin,
    errors: pageErrors,
    session: { kind: "admin", signIn: PATHS.adminLogin },
  },
];

/**
 * Builds the application from the route list (lib/app/routes.ts ROUTES; tests pass their own): the
 * routes the service serves are mounted, each with its 405s, the grouped ones inside their group.
 */
export function createApp(
  deps: ServerDeps,
  routes: readonly RouteDef<ServerDeps>[] = ROUTES,
): Hono<AppEnv> {
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
  const mounted = {
    routes: routes.filter((r) => served(r, deps.service)),
    // Views of stored records queue fairly per caller, one queue per app (viewsRecords routes and
    // the MCP tools that read records).
    viewGate: createRecordViewGate(),
  };
  for (const route of mounted.routes) {
    if (!GROUPS.some((g) => inGroup(route, g))) app.route("/", routeApp(route, deps, mounted));
  }
  for (const group of GROUPS) {
    const members = mounted.routes.filter((r) => inGroup(r, group));
    if (members.length) app.route(group.prefix, routeGroup(deps, group, members, mounted));
  }
  // A browser gets a page with a way home; the API (and anything not asking for HTML) the JSON
  // 404 of the error mapping (lib/kit/web/not_found.tsx says which is which).
  app.notFound((c) => {
    const page = notFoundPage(c, deps);
    if (page) return page;
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
  const answers = new WeakMap<[string, string][], Response>();
  return (req, info) => {
    if (deps && req.method === "POST" && pathOf(req.url) === scanRoute.path) {
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
        // A clone of one Response built per cached answer: building a Response with its ten
        // headers cost about 20 µs a request (each header validated), a clone under 1 µs.
        let answer = answers.get(hit.headers);
        if (!answer) {
          answer = new Response(hit.body, { status: 200, headers: hit.headers });
          answers.set(hit.headers, answer);
        }
        return answer.clone();
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
 * same function as the route (lib/features/report/routes/api/scan.ts scanPost), the same client IP rule, the same
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
    const a = errorAnswer(error, { path: PATHS.scan, method: "POST" }, deps);
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
  const path = pathOf(url);
  if (!path.startsWith(REPORT_HEAD) || !path.endsWith(REPORT_TAIL)) return null;
  const name = path.slice(REPORT_HEAD.length, path.length - REPORT_TAIL.length);
  return name.length <= 253 && NORMAL_DOMAIN.test(name) ? fastDomain(name) : null;
}

/** {@link PATHS}.reportJson around its `{domain}`. */
const [REPORT_HEAD, REPORT_TAIL] = PATHS.reportJson.split("{domain}");
/** A domain in its normal spelling (at most 253 characters, checked beside it). */
const NORMAL_DOMAIN = /^[a-z0-9.-]+$/;

/** Only already-normal domains take the fast path; any other spelling goes through the app. */
function fastDomain(name: string): string | null {
  return name.startsWith("www.") || name.endsWith(".") || !name.includes(".") ? null : name;
}

function toResponse(error: Error, c: Context, deps: AppDeps): Response {
  const a = errorAnswer(error, { path: c.req.path, method: c.req.method }, deps);
  // c.json keeps the headers the route had set (e.g. Access-Control-Allow-Origin on a 404).
  return c.json(a.body, a.status as 400, a.headers);
}
