/**
 * /account/login: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` signs in
 * (lib/features/accounts/accounts.ts logIn): a new session token (the old one, if any, is deleted) and a 303 to
 * /account. A failure says "Wrong e-mail address or password." whether or not the address has an
 * account, after the same argon2id verification.
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { logIn } from "../../accounts.ts";
import { dummyHash } from "../../../../kit/auth/password.ts";
import { renderAuthPage, signedInEmail, submitAuthForm } from "../../auth_forms.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** GET and POST /account/login. */
export const loginRoute: RouteDef = {
  path: PATHS.accountLogin,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = async (c) => {
    dummyHash().catch(() => {});
    const signedInAs = await signedInEmail(c, deps);
    const signedOut = c.req.query("signedout") !== undefined;
    return renderAuthPage(c, deps, "login", {
      signedInAs,
      notice: signedOut && !signedInAs ? { kind: "success", text: "You are signed out." } : null,
    });
  };
  app.POST = (c) => submitAuthForm(c, deps, "login", (input) => logIn(input, deps), 200);
  return app;
}
