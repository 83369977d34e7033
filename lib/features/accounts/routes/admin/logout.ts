/** POST /admin/logout: ends the administrator session (KV and cookie) and redirects 303. */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { assertFormToken, presentedToken } from "../../../../kit/web/csrf.ts";
import { readFormBody, wantsJson } from "../../../../kit/web/http_form.ts";
import { closeSession, readSession } from "../../../../kit/web/sessions.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** POST /admin/logout. */
export const adminLogoutRoute: RouteDef = {
  path: PATHS.adminLogout,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.POST = async (c) => {
    const form = await readFormBody(c.req.raw);
    const session = await readSession(c, deps, "admin");
    if (session) await assertFormToken(session.csrf, presentedToken(c, form));
    await closeSession(c, deps, "admin");
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ ok: true, location: PATHS.adminLogin });
    return c.redirect(PATHS.adminLogin, 303);
  };
  return app;
}
