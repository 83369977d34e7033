/**
 * /account/login: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` signs in
 * (lib/accounts/accounts.ts logIn): a new session token (the old one, if any, is deleted) and a 303 to
 * /account. A failure says "Wrong e-mail address or password." whether or not the address has an
 * account, after the same argon2id verification.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { logIn } from "../../lib/accounts/accounts.ts";
import { dummyHash } from "../../lib/accounts/password.ts";
import { renderAuthPage, signedInEmail, submitAuthForm } from "../../lib/web/auth_forms.ts";

/** The /account/login routes. */
export function loginRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    dummyHash().catch(() => {});
    const signedInAs = await signedInEmail(c, deps);
    const signedOut = c.req.query("signedout") !== undefined;
    return renderAuthPage(c, deps, "login", {
      signedInAs,
      notice: signedOut && !signedInAs ? { kind: "success", text: "You are signed out." } : null,
    });
  });
  app.post("/", (c) => submitAuthForm(c, deps, "login", (input) => logIn(input, deps), 200));
  return app;
}
