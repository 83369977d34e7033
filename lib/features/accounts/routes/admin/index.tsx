/**
 * GET /admin: the administrator's overview (lib/features/accounts/admin.ts adminOverview): recent scans, accounts
 * and their keys, and the rate limits' pressure. Without an administrator session (a client
 * session is not one): 303 to /admin/login.
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { adminOverview } from "../../admin.ts";
import { takeFlash } from "../../../../kit/web/sessions.ts";
import { type AdminFlash, AdminPage } from "../../views/admin_page.tsx";
import { ACCOUNT_STYLES } from "../../../../kit/ui/error_page.tsx";
import { renderPage } from "../../../../kit/web/render.tsx";
import { shellFor } from "../../../../kit/web/shell.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** GET /admin: the overview (administrator session). */
export const adminRoute: RouteDef = {
  path: PATHS.admin,
  signedIn: ["GET"],
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = async (c) => {
    // The admin group requires the session (lib/app/app.ts, lib/kit/web/groups.ts).
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
