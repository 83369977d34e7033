/**
 * POST /admin/keys/:id/revoke (`csrf`): the administrator revokes any key, at once. A form post
 * is redirected 303 to /admin with a notice; a fetch with `Accept: application/json` gets 200
 * `{entry}`. Without an administrator session: 303 to /admin/login (or 401 for a fetch).
 */
import { Hono } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/web/context.ts";
import { revokeKey } from "../../lib/accounts.ts";
import { assertFormToken, crossSiteGuard, presentedToken } from "../../lib/csrf.ts";
import { UnauthorizedError } from "../../lib/errors.ts";
import { readFormBody, wantsJson } from "../../lib/http_form.ts";
import { putFlash, readSession } from "../../lib/sessions.ts";
import { pageErrors } from "../../lib/ui/error_page.tsx";
import { keyView } from "../../lib/ui/key_view.ts";
import type { AdminFlash } from "../../lib/ui/admin_page.tsx";

/** The /admin/keys routes. */
export function adminKeyRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(pageErrors(deps));
  app.use("*", crossSiteGuard(deps));
  app.post("/:id/revoke", async (c) => {
    const form = await readFormBody(c.req.raw);
    const session = await readSession(c, deps, "admin");
    if (!session) {
      if (wantsJson(c)) throw new UnauthorizedError();
      return c.redirect("/admin/login", 303);
    }
    await assertFormToken(session.csrf, presentedToken(c, form));
    const entry = await revokeKey(deps, c.req.param("id"));
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ entry: keyView(entry) });
    await putFlash(
      deps,
      session,
      {
        notice: { kind: "success", text: `Key “${entry.name}” (${entry.prefix}…) revoked.` },
      } satisfies AdminFlash,
    );
    return c.redirect("/admin", 303);
  });
  allowOnly(app, "/:id/revoke", ["POST"]);
  return app;
}
