/** POST /admin/logout: ends the administrator session (KV and cookie) and redirects 303. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { assertFormToken, presentedToken } from "../../lib/web/csrf.ts";
import { readFormBody, wantsJson } from "../../lib/web/http_form.ts";
import { closeSession, readSession } from "../../lib/web/sessions.ts";

/** The /admin/logout route. */
export function adminLogoutRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    const form = await readFormBody(c.req.raw);
    const session = await readSession(c, deps, "admin");
    if (session) await assertFormToken(session.csrf, presentedToken(c, form));
    await closeSession(c, deps, "admin");
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ ok: true, location: "/admin/login" });
    return c.redirect("/admin/login", 303);
  });
  return app;
}
