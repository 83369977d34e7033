/**
 * POST /admin/keys/:id/revoke (`csrf`): the administrator revokes any key, at once. A form post
 * is redirected 303 to /admin with a notice; a fetch with `Accept: application/json` gets 200
 * `{entry}`. Without an administrator session: 303 to /admin/login (or 401 for a fetch).
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { revokeKey } from "../../accounts.ts";
import { assertFormToken, presentedToken } from "../../../../kit/web/csrf.ts";
import { readFormBody, wantsJson } from "../../../../kit/web/http_form.ts";
import { putFlash } from "../../../../kit/web/sessions.ts";
import { keyView } from "../../../../kit/ui/key_view.ts";
import type { AdminFlash } from "../../views/admin_page.tsx";
import { PATHS } from "../../../../kit/report_urls.ts";

/** POST /admin/keys/:id/revoke. */
export const adminKeyRevokeRoute: RouteDef = {
  path: PATHS.adminKeyRevoke,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => revokeAnyKey(c, deps) }),
};

async function revokeAnyKey(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const form = await readFormBody(c.req.raw);
  // The admin group requires the session (lib/app/app.ts, lib/kit/web/groups.ts).
  const session = c.get("adminSession")!;
  await assertFormToken(session.csrf, presentedToken(c, form));
  const entry = await revokeKey(deps, param(c, "id"));
  c.header("Cache-Control", "no-store");
  if (wantsJson(c)) return c.json({ entry: keyView(entry) });
  await putFlash(
    deps,
    session,
    {
      notice: { kind: "success", text: `Key “${entry.name}” (${entry.prefix}…) revoked.` },
    } satisfies AdminFlash,
  );
  return c.redirect(PATHS.admin, 303);
}
