/**
 * POST /account/logout: deletes the session from KV, clears its cookie and redirects 303 to the
 * login page. The form carries the session's token (a cross-site page cannot sign you out).
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { assertFormToken, presentedToken } from "../../../../kit/web/csrf.ts";
import { readFormBody, wantsJson } from "../../../../kit/web/http_form.ts";
import { closeSession } from "../../../../kit/web/sessions.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** POST /account/logout. */
export const logoutRoute: RouteDef = {
  path: PATHS.accountLogout,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.POST = async (c) => {
    const form = await readFormBody(c.req.raw);
    const session = c.get("session");
    // Without a valid session there is nothing to protect: the cookie is just cleared.
    if (session) await assertFormToken(session.csrf, presentedToken(c, form));
    await closeSession(c, deps, "client");
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ ok: true, location: PATHS.accountLogin });
    return c.redirect(`${PATHS.accountLogin}?signedout`, 303);
  };
  return app;
}
