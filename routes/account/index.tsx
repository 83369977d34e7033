/**
 * GET /account: the dashboard of the signed-in account (its keys, create, revoke, how to use a
 * key). Without a valid session: 303 to /account/login. A key created by a no-JS form post
 * arrives here once, through the session's encrypted one-time flash (lib/sessions.ts).
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/app.ts";
import { type ActiveSession, closeSession, takeFlash } from "../../lib/sessions.ts";
import { accountsOf } from "../../lib/store_accounts.ts";
import { type DashboardState, renderDashboard } from "../../lib/ui/account_page.tsx";
import { pageErrors } from "../../lib/ui/error_page.tsx";
import { keyView } from "../../lib/ui/key_view.ts";

/** What a form post leaves for the next dashboard view. */
export type DashboardFlash = Pick<DashboardState, "created" | "notice">;

/**
 * Renders the dashboard of a session's account with `extra` (a refused form's name and reason),
 * or redirects to the login page when the account is gone.
 */
export async function dashboardFor(
  c: Context<AppEnv>,
  deps: AppDeps,
  session: ActiveSession,
  extra: Partial<DashboardState> = {},
  status = 200,
): Promise<Response> {
  const account = await accountsOf(deps.store).getAccount(session.accountId ?? "");
  if (!account) {
    await closeSession(c, deps, "client");
    return c.redirect("/account/login", 303);
  }
  const keys = (await deps.store.listKeys(account.id)).map(keyView);
  return renderDashboard(c, deps, { account, session, keys, ...extra }, status);
}

/** The /account route. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(pageErrors(deps));
  app.get("/", async (c) => {
    const session = c.get("session");
    if (!session) return c.redirect("/account/login", 303);
    const flash = await takeFlash<DashboardFlash>(deps, session);
    return await dashboardFor(c, deps, session, {
      created: flash?.created ?? null,
      notice: flash?.notice ?? null,
    });
  });
  allowOnly(app, "/", ["GET", "HEAD"]);
  return app;
}
