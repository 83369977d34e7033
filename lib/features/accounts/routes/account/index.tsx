/**
 * GET /account: the dashboard of the signed-in account (its keys, create, revoke, how to use a
 * key). Without a valid session: 303 to /account/login. A key created by a no-JS form post
 * arrives here once, through the session's encrypted one-time flash (lib/kit/web/sessions.ts).
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { takeFlash } from "../../../../kit/web/sessions.ts";
import { type DashboardFlash, dashboardFor } from "../../account_dashboard.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** GET /account: the dashboard (signed in). */
export const accountRoute: RouteDef = {
  path: PATHS.account,
  signedIn: ["GET"],
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = async (c) => {
    // The account group requires the session (lib/app/app.ts, lib/kit/web/groups.ts).
    const session = c.get("session")!;
    const flash = await takeFlash<DashboardFlash>(deps, session);
    return await dashboardFor(c, deps, session, {
      created: flash?.created ?? null,
      notice: flash?.notice ?? null,
      sections: flash?.sections,
    });
  };
  return app;
}
