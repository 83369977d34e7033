/**
 * The key forms of the dashboard, for a signed-in client account:
 * - POST /account/keys (`name`, `csrf`): creates a named key. A form post is redirected 303 to
 *   /account, where the full key is shown once (never in a URL); a fetch with
 *   `Accept: application/json` gets 201 `{key, entry}` (the island shows it once).
 * - POST /account/keys/:id/revoke (`csrf`): revokes one of the account's keys at once (303, or
 *   200 `{entry}` for a fetch). Another account's key id is 404.
 * Without a session: 303 to the login page (a form) or 401 (a fetch).
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { createAccountKey, FieldError, KeyLimitError, revokeKey } from "../../accounts.ts";
import { signedInForm } from "../../../../kit/web/csrf.ts";
import { field, wantsJson } from "../../../../kit/web/http_form.ts";
import { putFlash } from "../../../../kit/web/sessions.ts";
import { keyView } from "../../../../kit/ui/key_view.ts";
import { type DashboardFlash, dashboardFor } from "../../account_dashboard.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** POST /account/keys: creates a key. */
export const accountKeysRoute: RouteDef = {
  path: PATHS.accountKeys,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => createKey(c, deps) }),
};

/** POST /account/keys/:id/revoke: revokes one of the account's keys. */
export const accountKeyRevokeRoute: RouteDef = {
  path: PATHS.accountKeyRevoke,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => revokeAccountKey(c, deps) }),
};

async function createKey(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const { session, form } = await signedInForm(c);
  c.header("Cache-Control", "no-store");
  const name = field(form, "name");
  try {
    const { key, entry } = await createAccountKey(
      deps,
      deps.service.keyPrefix,
      session.accountId!,
      name,
    );
    if (wantsJson(c)) return c.json({ key, entry: keyView(entry) }, 201);
    await putFlash(
      deps,
      session,
      {
        created: { key, id: entry.id, name: entry.name },
      } satisfies DashboardFlash,
    );
    return c.redirect(PATHS.account, 303);
  } catch (error) {
    if (wantsJson(c)) throw error;
    if (error instanceof FieldError || error instanceof KeyLimitError) {
      return await dashboardFor(c, deps, session, {
        nameValue: name,
        nameError: error instanceof FieldError ? error.fields.name ?? error.message : null,
        notice: error instanceof KeyLimitError ? { kind: "error", text: error.message } : null,
      }, error.status);
    }
    throw error;
  }
}

async function revokeAccountKey(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const { session } = await signedInForm(c);
  const entry = await revokeKey(deps, param(c, "id"), { accountId: session.accountId! });
  c.header("Cache-Control", "no-store");
  if (wantsJson(c)) return c.json({ entry: keyView(entry) });
  await putFlash(
    deps,
    session,
    {
      notice: {
        kind: "success",
        text: `Key “${entry.name}” revoked. Requests with it now get 401.`,
      },
    } satisfies DashboardFlash,
  );
  return c.redirect(PATHS.account, 303);
}
