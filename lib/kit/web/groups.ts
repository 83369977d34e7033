/**
 * Route groups: the routes under a path prefix (/account, /admin) declared once with what every
 * route in it shares: the error page, the cross-site guard, and the session of which kind the
 * methods a route marks `signedIn` need. The route modules inside stay leaves: they neither set
 * these up nor check the session themselves; a route that needs one reads it from the context
 * (`c.get("session")`, `c.get("adminSession")`).
 */
import { Hono } from "hono";
import type { ErrorHandler, MiddlewareHandler } from "hono";
import { crossSiteGuard } from "./csrf.ts";
import { UnauthorizedError } from "../errors.ts";
import { wantsJson } from "./http_form.ts";
import { readSession } from "./sessions.ts";
import type { SessionKind } from "../storage/store_accounts.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { honoPath, type MountedApp, routeApp, type RouteDef } from "./route.ts";

/** What a group declares once. */
export interface GroupSpec {
  /** The path every route of the group starts with ("/account"). */
  prefix: string;
  /** How errors of the group's routes answer (an HTML page unless JSON is asked for). */
  errors: (deps: AppDeps) => ErrorHandler<AppEnv>;
  /** The session the group's `signedIn` routes need, and where a signed-out visitor is sent. */
  session: { kind: SessionKind; signIn: string };
}

/** Whether a route's path is the group's or below it. */
export function inGroup(route: RouteDef, spec: GroupSpec): boolean {
  return route.path === spec.prefix || route.path.startsWith(`${spec.prefix}/`);
}

/**
 * Requires a session of `kind`: without one, a page request is sent to `signIn` (303) and a JSON
 * request (or any request that is not a GET or HEAD and asks for JSON) gets 401.
 */
export function requireSession(
  deps: AppDeps,
  kind: SessionKind,
  signIn: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The client session is read once per request by lib/kit/web/sessions.ts sessionMiddleware.
    const session = kind === "client" ? c.get("session") : await readSession(c, deps, kind);
    if (!session) {
      const safe = c.req.method === "GET" || c.req.method === "HEAD";
      if (!safe && wantsJson(c)) throw new UnauthorizedError();
      return c.redirect(signIn, 303);
    }
    if (kind === "admin") c.set("adminSession", session);
    await next();
  };
}

/**
 * Builds a group, to mount at its prefix: every route behind the error page and the cross-site
 * guard, the methods a route marks `signedIn` behind the session requirement.
 */
export function routeGroup(
  deps: AppDeps,
  spec: GroupSpec,
  routes: readonly RouteDef[],
  app: MountedApp,
): Hono<AppEnv> {
  const group = new Hono<AppEnv>();
  group.onError(spec.errors(deps));
  // Refuses cross-site POST/PUT/PATCH/DELETE (GET and HEAD pass): every state-changing route of
  // the group is covered, including one added later.
  group.use("*", crossSiteGuard(deps));
  const signedIn = requireSession(deps, spec.session.kind, spec.session.signIn);
  for (const r of routes) {
    if (r.signedIn?.length) {
      // HEAD is answered by the GET route, so it needs the session GET needs.
      const methods = r.signedIn.flatMap((m) => m === "GET" ? ["GET", "HEAD"] : [m]);
      group.on(methods, honoPath(r.path.slice(spec.prefix.length) || "/"), signedIn);
    }
  }
  // Each route answers 405 for the methods it does not serve (lib/kit/web/route.ts routeApp).
  for (const r of routes) group.route("/", routeApp(r, deps, app, spec.prefix));
  return group;
}
