/**
 * POST /account/logout: deletes the session from KV, clears its cookie and redirects 303 to the
 * login page. The form carries the session's token (a cross-site page cannot sign you out).
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { assertFormToken, presentedToken } from "../../lib/web/csrf.ts";
import { readFormBody, wantsJson } from "../../lib/web/http_form.ts";
import { closeSession } from "../../lib/web/sessions.ts";

/** The /account/logout route. */
export function logoutRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    const form = await readFormBody(c.req.raw);
    const session = c.get("session");
    // Without a valid session there is nothing to protect: the cookie is just cleared.
    if (session) await assertFormToken(session.csrf, presentedToken(c, form));
    await closeSession(c, deps, "client");
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ ok: true, location: "/account/login" });
    return c.redirect("/account/login?signedout", 303);
  });
  return app;
}
