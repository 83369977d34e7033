/**
 * GET /admin: the administrator's overview (lib/accounts/admin.ts adminOverview): recent scans, accounts
 * and their keys, and the rate limits' pressure. Without an administrator session (a client
 * session is not one): 303 to /admin/login.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { adminOverview } from "../../lib/accounts/admin.ts";
import { takeFlash } from "../../lib/web/sessions.ts";
import { type AdminFlash, renderAdminPage } from "../../lib/ui/admin_page.tsx";

/** The /admin route. */
export function adminRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    // The admin group requires the session (lib/app.ts, lib/web/groups.ts).
    const session = c.get("adminSession")!;
    const [flash, overview] = await Promise.all([
      takeFlash<AdminFlash>(deps, session),
      adminOverview(deps),
    ]);
    return renderAdminPage(c, deps, session, overview, flash?.notice ?? null);
  });
  return app;
}
