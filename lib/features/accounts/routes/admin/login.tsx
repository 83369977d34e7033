/**
 * /admin/login: the site owner's sign-in (password from ADMIN_PASSWORD_HASH or ADMIN_PASSWORD,
 * lib/features/accounts/admin.ts). POST `password`, `turnstileToken`, `csrf`: behind the challenge, its
 * failures limited as a client sign-in's (a harder check past them; with Turnstile, the per-IP
 * attempt window shared with sign-up, 429 with Retry-After). Success opens an administrator
 * session, separate from client sessions, and redirects 303 to /admin.
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { adminLogIn, AdminNotConfiguredError, adminSetup } from "../../admin.ts";
import { assertAnonymousFormToken, presentedToken } from "../../../../kit/web/csrf.ts";
import { field, readFormBody, wantsJson } from "../../../../kit/web/http_form.ts";
import { openSession } from "../../../../kit/web/sessions.ts";
import { refusedAuthPage, renderAuthPage } from "../../auth_forms.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** GET and POST /admin/login. */
export const adminLoginRoute: RouteDef = {
  path: PATHS.adminLogin,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = (c) => {
    const setup = adminSetup(deps.config);
    const disabled = setup === "none" || setup === "invalid"
      ? new AdminNotConfiguredError(setup).message
      : null;
    return renderAuthPage(c, deps, "admin", { disabled });
  };
  app.POST = async (c) => {
    const form = await readFormBody(c.req.raw);
    await assertAnonymousFormToken(c, deps, presentedToken(c, form));
    try {
      await adminLogIn({
        password: field(form, "password"),
        turnstileToken: field(form, "turnstileToken"),
        ip: c.get("clientIp"),
      }, deps);
      await openSession(c, deps, "admin", null);
      c.header("Cache-Control", "no-store");
      if (wantsJson(c)) return c.json({ ok: true, location: PATHS.admin });
      return c.redirect(PATHS.admin, 303);
    } catch (error) {
      if (wantsJson(c)) throw error;
      if (error instanceof AdminNotConfiguredError) {
        return renderAuthPage(c, deps, "admin", { disabled: error.message }, 403);
      }
      const page = refusedAuthPage(c, deps, "admin", "", error);
      if (page) return page;
      throw error;
    }
  };
  return app;
}
