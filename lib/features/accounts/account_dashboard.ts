/**
 * The signed-in client's dashboard (lib/features/accounts/routes/account/index.tsx and the key
 * forms of keys.ts), with the sections other features add (AppDeps.accountSections,
 * lib/kit/web/account_sections.ts), and the account group's error page, which shows the dashboard
 * again for a section's refused form.
 */
import type { Context, ErrorHandler } from "hono";
import type { VNode } from "preact";
import type { AppDeps, AppEnv } from "../../kit/web/context.ts";
import { type ActiveSession, closeSession } from "../../kit/web/sessions.ts";
import { DashboardPage, type DashboardState } from "./views/account_page.tsx";
import { ACCOUNT_STYLES } from "../../kit/ui/error_page.tsx";
import { keyView } from "../../kit/ui/key_view.ts";
import { type AccountFlash, RefusedAccountForm } from "../../kit/web/account_sections.ts";
import type { NewKey } from "../../../islands/KeyManager.tsx";
import { expectedOrigin } from "../../kit/web/csrf.ts";
import { wantsJson } from "../../kit/web/http_form.ts";
import { pageErrors, pageWithStatus } from "../../kit/web/page_errors.tsx";
import { renderPage } from "../../kit/web/render.tsx";
import { shellFor } from "../../kit/web/shell.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";
import { PATHS } from "../../kit/report_urls.ts";

/** What a form post leaves for the next dashboard view: a new key (shown once), a notice, sections'. */
export interface DashboardFlash extends AccountFlash {
  created?: NewKey | null;
}

/**
 * Renders the dashboard of a session's account with `extra` (a refused key form's name and
 * reason; `sections`, what a form left for another feature's section), or redirects to the login
 * page when the account is gone.
 */
export async function dashboardFor(
  c: Context<AppEnv>,
  deps: AppDeps,
  session: ActiveSession,
  extra: Omit<Partial<DashboardState>, "sections"> & Pick<AccountFlash, "sections"> = {},
  status = 200,
): Promise<Response> {
  const account = await deps.accounts.getAccount(session.accountId ?? "");
  if (!account) {
    await closeSession(c, deps, "client");
    return c.redirect(PATHS.accountLogin, 303);
  }
  const keys = (await deps.store.keys.listKeys(account.id)).map(keyView);
  const origin = expectedOrigin(c, deps.config.trustProxy);
  const { sections: left, ...shown } = extra;
  // The sections' links name this instance as its alerts do: PUBLIC_URL, else this request's origin.
  const view = {
    accountId: account.id,
    csrf: session.csrf,
    origin: (deps.config.publicUrl ? trimEnd(deps.config.publicUrl, charsOf("/")) : null) ?? origin,
  };
  const sections = (await Promise.all(
    (deps.accountSections ?? []).map((s) => s.render(view, left?.[s.id])),
  )).filter((section): section is VNode => section !== null);
  const state: DashboardState = { account, csrf: session.csrf, keys, sections, ...shown };
  if (deps.service.readsServerLogs) state.logsHref = PATHS.accountLogs;
  // Status 400/409 when a no-JS key form was refused.
  return pageWithStatus(status, (s) =>
    renderPage(
      c,
      {
        title: "Your account",
        description: `Your ${deps.service.title} account: watched sites, alerts, AI answers, ` +
          "vendor keys and API keys.",
        noindex: true,
      },
      shellFor(c, deps, { islands: "account", styles: ACCOUNT_STYLES }),
      DashboardPage({ state, origin, prefix: deps.service.keyPrefix }),
      s,
    ));
}

/**
 * The account group's error page: a section's refused form (lib/kit/web/account_sections.ts
 * RefusedAccountForm) shows the dashboard again with the form in place, with the refusal's
 * status; any other error the group's error page (lib/kit/web/page_errors.tsx).
 */
export function accountPageErrors(deps: AppDeps): ErrorHandler<AppEnv> {
  const errors = pageErrors(deps);
  return async (error, c) => {
    const session = c.get("session");
    if (error instanceof RefusedAccountForm && session && !wantsJson(c)) {
      return await dashboardFor(
        c,
        deps,
        session,
        { sections: { [error.section]: error.left } },
        error.status,
      );
    }
    return await errors(error, c);
  };
}
