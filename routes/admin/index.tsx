/**
 * GET /admin: the administrator's overview (lib/admin.ts adminOverview): recent scans, accounts
 * and their keys, and the rate limits' pressure. Without an administrator session (a client
 * session is not one): 303 to /admin/login.
 */
import { Hono } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/web/context.ts";
import { adminOverview } from "../../lib/admin.ts";
import { readSession, takeFlash } from "../../lib/sessions.ts";
import { type AdminFlash, renderAdminPage } from "../../lib/ui/admin_page.tsx";
import { pageErrors } from "../../lib/ui/error_page.tsx";

/** The /admin route. */
export function adminRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(pageErrors(deps));
  app.get("/", async (c) => {
    const session = await readSession(c, deps, "admin");
    if (!session) return c.redirect("/admin/login", 303);
    const [flash, overview] = await Promise.all([
      takeFlash<AdminFlash>(deps, session),
      adminOverview(deps),
    ]);
    return renderAdminPage(c, deps, session, overview, flash?.notice ?? null);
  });
  allowOnly(app, "/", ["GET", "HEAD"]);
  return app;
}
