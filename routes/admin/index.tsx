/**
 * GET /admin: the administrator's overview (lib/accounts/admin.ts adminOverview): recent scans, accounts
 * and their keys, and the rate limits' pressure. Without an administrator session (a client
 * session is not one): 303 to /admin/login.
 */
import type { AppDeps } from "../../lib/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../lib/web/route.ts";
import { adminOverview } from "../../lib/accounts/admin.ts";
import { takeFlash } from "../../lib/web/sessions.ts";
import { type AdminFlash, AdminPage } from "../../lib/ui/admin_page.tsx";
import { ACCOUNT_STYLES } from "../../lib/ui/error_page.tsx";
import { renderPage } from "../../lib/web/render.tsx";
import { shellFor } from "../../lib/web/shell.ts";

/** GET /admin: the overview (administrator session). */
export const adminRoute: RouteDef = {
  path: "/admin",
  signedIn: ["GET"],
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = async (c) => {
    // The admin group requires the session (lib/app.ts, lib/web/groups.ts).
    const session = c.get("adminSession")!;
    const [flash, overview] = await Promise.all([
      takeFlash<AdminFlash>(deps, session),
      adminOverview(deps),
    ]);
    return renderPage(
      c,
      { title: "Administration", description: "Site administration.", noindex: true },
      shellFor(c, deps, { styles: ACCOUNT_STYLES }),
      <AdminPage
        serviceTitle={deps.service.title}
        csrf={session.csrf}
        overview={overview}
        notice={flash?.notice ?? null}
      />,
    );
  };
  return app;
}
