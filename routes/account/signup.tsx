/**
 * /account/signup: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` creates the
 * account (lib/accounts/accounts.ts signUp), signs it in (a fresh session) and redirects 303 to /account.
 * A refused post re-renders the form with the reasons (400 fields, 403 challenge, 409 address
 * taken, 429 with Retry-After); a fetch with `Accept: application/json` gets JSON instead.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { signUp } from "../../lib/accounts/accounts.ts";
import { dummyHash } from "../../lib/accounts/password.ts";
import { renderAuthPage, signedInEmail, submitAuthForm } from "../../lib/web/auth_forms.ts";

/** The /account/signup routes. */
export function signupRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    // Warm the login's dummy hash off the request path (see lib/accounts/accounts.ts logIn).
    dummyHash().catch(() => {});
    return renderAuthPage(c, deps, "signup", { signedInAs: await signedInEmail(c, deps) });
  });
  app.post("/", (c) => submitAuthForm(c, deps, "signup", (input) => signUp(input, deps), 201));
  return app;
}
