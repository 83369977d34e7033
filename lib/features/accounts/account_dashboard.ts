/** The signed-in client's dashboard (lib/features/accounts/routes/account/index.tsx and the key forms of keys.ts). */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../kit/web/context.ts";
import { type ActiveSession, closeSession } from "../../kit/web/sessions.ts";
import { DashboardPage, type DashboardState } from "./views/account_page.tsx";
import { ACCOUNT_STYLES } from "../../kit/ui/error_page.tsx";
import { keyView } from "../../kit/ui/key_view.ts";
import { watchPanel } from "../watch/panel.ts";
import { type UserKeyPanel, userKeyPanel } from "../answers/user_keys.ts";
import { expectedOrigin } from "../../kit/web/csrf.ts";
import { pageWithStatus } from "../../kit/web/page_errors.tsx";
import { renderPage } from "../../kit/web/render.tsx";
import { shellFor } from "../../kit/web/shell.ts";
import { PATHS } from "../../kit/report_urls.ts";

/** What a form post leaves for the next dashboard view. */
export type DashboardFlash = Pick<
  DashboardState,
  "created" | "notice" | "watchCreated" | "answerKeyNotice"
>;

/**
 * Renders the dashboard of a session's account with `extra` (a refused form's name and reason;
 * `answerKeyForm`, a refused vendor-key form), or redirects to the login page when the account is
 * gone.
 */
export async function dashboardFor(
  c: Context<AppEnv>,
  deps: AppDeps,
  session: ActiveSession,
  extra: Partial<DashboardState> & { answerKeyForm?: UserKeyPanel["form"] } = {},
  status = 200,
): Promise<Response> {
  const account = await deps.accounts.getAccount(session.accountId ?? "");
  if (!account) {
    await closeSession(c, deps, "client");
    return c.redirect("/account/login", 303);
  }
  const keys = (await deps.store.keys.listKeys(account.id)).map(keyView);
  const watch = deps.watch ? await watchPanel(deps.watch, account.id, extra.watchForm) : undefined;
  const { answerKeyForm, ...shown } = extra;
  const answerKeys = deps.answers
    ? await userKeyPanel(deps.answers, account.id, answerKeyForm) ?? undefined
    : undefined;
  const state: DashboardState = { account, csrf: session.csrf, keys, watch, answerKeys, ...shown };
  if (deps.service.readsServerLogs) state.logsHref = PATHS.accountLogs;
  const origin = expectedOrigin(c, deps.config.trustProxy);
  // Status 400/409 when a no-JS key form was refused.
  return pageWithStatus(status, (s) =>
    renderPage(
      c,
      {
        title: "Your API keys",
        description: `API keys of your ${deps.service.title} account.`,
        noindex: true,
      },
      shellFor(c, deps, { islands: "account", styles: ACCOUNT_STYLES }),
      DashboardPage({ state, origin, prefix: deps.service.keyPrefix }),
      s,
    ));
}
