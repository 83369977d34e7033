/**
 * /account/signup: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` creates the
 * account (lib/accounts.ts signUp), signs it in (a fresh session) and redirects 303 to /account.
 * A refused post re-renders the form with the reasons (400 fields, 403 challenge, 409 address
 * taken, 429 with Retry-After); a fetch with `Accept: application/json` gets JSON instead.
 */
import { Hono } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/app.ts";
import { signUp } from "../../lib/accounts.ts";
import { assertAnonymousFormToken, crossSiteGuard, presentedToken } from "../../lib/csrf.ts";
import { field, readFormBody, wantsJson } from "../../lib/http_form.ts";
import { dummyHash } from "../../lib/password.ts";
import { openSession } from "../../lib/sessions.ts";
import { renderAuthPage } from "../../lib/ui/auth_page.tsx";
import { pageErrors } from "../../lib/ui/error_page.tsx";
import { refusedAuthPage, signedInEmail } from "./login.tsx";

/** The /account/signup routes. */
export function signupRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(pageErrors(deps));
  app.use("*", crossSiteGuard(deps));
  app.get("/", async (c) => {
    // Warm the login's dummy hash off the request path (see lib/accounts.ts logIn).
    dummyHash().catch(() => {});
    return renderAuthPage(c, deps, "signup", { signedInAs: await signedInEmail(c, deps) });
  });
  app.post("/", async (c) => {
    const form = await readFormBody(c.req.raw);
    await assertAnonymousFormToken(c, deps, presentedToken(c, form));
    const email = field(form, "email");
    try {
      const account = await signUp({
        email,
        password: field(form, "password"),
        turnstileToken: field(form, "turnstileToken"),
        ip: c.get("clientIp"),
      }, deps);
      await openSession(c, deps, "client", account.id);
      c.header("Cache-Control", "no-store");
      if (wantsJson(c)) return c.json({ ok: true, location: "/account" }, 201);
      return c.redirect("/account", 303);
    } catch (error) {
      if (wantsJson(c)) throw error;
      const page = refusedAuthPage(c, deps, "signup", email, error);
      if (page) return page;
      throw error;
    }
  });
  allowOnly(app, "/", ["GET", "HEAD", "POST"]);
  return app;
}
