/**
 * /account/signup: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` creates the
 * account (lib/features/accounts/accounts.ts signUp), signs it in (a fresh session) and redirects 303 to /account.
 * A refused post re-renders the form with the reasons (400 fields, 403 challenge, 409 address
 * taken, 429 with Retry-After); a fetch with `Accept: application/json` gets JSON instead.
 */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../../kit/web/route.ts";
import { signUp } from "../../accounts.ts";
import { dummyHash } from "../../../../kit/auth/password.ts";
import { renderAuthPage, signedInEmail, submitAuthForm } from "../../auth_forms.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** GET and POST /account/signup. */
export const signupRoute: RouteDef = {
  path: PATHS.accountSignup,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = async (c) => {
    // Warm the login's dummy hash off the request path (see lib/features/accounts/accounts.ts logIn).
    dummyHash().catch(() => {});
    return renderAuthPage(c, deps, "signup", { signedInAs: await signedInEmail(c, deps) });
  };
  app.POST = (c) => submitAuthForm(c, deps, "signup", (input) => signUp(input, deps), 201);
  return app;
}
