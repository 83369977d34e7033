/**
 * Route groups: a folder of routes (routes/account/, routes/admin/) declared once with what every
 * route in it shares: the error page, the cross-site guard, and which of its routes need a signed-in
 * session of which kind. The route modules inside stay leaves: they neither set these up nor check
 * the session themselves; a route that needs one reads it from the context (`c.get("session")`,
 * `c.get("adminSession")`).
 */
import { Hono } from "hono";
import type { ErrorHandler, MiddlewareHandler } from "hono";
import { crossSiteGuard } from "./csrf.ts";
import { UnauthorizedError } from "../errors.ts";
import { wantsJson } from "./http_form.ts";
import { readSession } from "./sessions.ts";
import type { SessionKind } from "../storage/store_accounts.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { withMethodNotAllowed } from "./methods.ts";

/** One route module mounted in a group. */
export interface GroupRoute {
  /** The path inside the group ("/" for the group's own page). */
  path: string;
  routes: (deps: AppDeps) => Hono<AppEnv>;
  /** The methods of this route that need a signed-in session of the group's kind. */
  signedIn?: string[];
}

/** What a group declares once. */
export interface GroupSpec {
  /** How errors of the group's routes answer (an HTML page unless JSON is asked for). */
  errors: (deps: AppDeps) => ErrorHandler<AppEnv>;
  /** The session the group's `signedIn` routes need, and where a signed-out visitor is sent. */
  session: { kind: SessionKind; signIn: string };
  /** Mounted in this order (the group's own page, "/", last). */
  routes: GroupRoute[];
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
    // The client session is read once per request by lib/web/sessions.ts sessionMiddleware.
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

/** Builds a group: every route behind the error page and the cross-site guard. */
export function routeGroup(deps: AppDeps, spec: GroupSpec): Hono<AppEnv> {
  const group = new Hono<AppEnv>();
  group.onError(spec.errors(deps));
  // Refuses cross-site POST/PUT/PATCH/DELETE (GET and HEAD pass): every state-changing route of
  // the group is covered, including one added later.
  group.use("*", crossSiteGuard(deps));
  const signedIn = requireSession(deps, spec.session.kind, spec.session.signIn);
  for (const r of spec.routes) {
    if (r.signedIn?.length) {
      const paths = r.path === "/" ? ["/"] : [r.path, `${r.path}/*`];
      for (const p of paths) group.on(r.signedIn, p, signedIn);
    }
  }
  // Each route module answers 405 for the methods it does not serve (lib/web/methods.ts).
  for (const r of spec.routes) group.route(r.path, withMethodNotAllowed(r.routes(deps)));
  return group;
}
