/**
 * /account/login: GET the form; POST `email`, `password`, `turnstileToken`, `csrf` signs in
 * (lib/accounts.ts logIn): a new session token (the old one, if any, is deleted) and a 303 to
 * /account. A failure says "Wrong e-mail address or password." whether or not the address has an
 * account, after the same argon2id verification.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/app.ts";
import { FieldError, logIn, LoginFailedError } from "../../lib/accounts.ts";
import { assertAnonymousFormToken, crossSiteGuard, presentedToken } from "../../lib/csrf.ts";
import { RateLimitedError, VerificationFailedError } from "../../lib/errors.ts";
import { field, readFormBody, wantsJson } from "../../lib/http_form.ts";
import { dummyHash } from "../../lib/password.ts";
import { openSession } from "../../lib/sessions.ts";
import { type AuthMode, renderAuthPage } from "../../lib/ui/auth_page.tsx";
import { pageErrors } from "../../lib/ui/error_page.tsx";
import { accountsOf } from "../../lib/store_accounts.ts";

/**
 * The form re-rendered for a refused sign-up or sign-in (the e-mail kept, never the password), or
 * null when the error is not one the form explains (the error page handles it).
 */
export function refusedAuthPage(
  c: Context,
  deps: AppDeps,
  mode: AuthMode,
  email: string,
  error: unknown,
): Response | null {
  if (error instanceof FieldError) {
    return renderAuthPage(c, deps, mode, {
      email,
      errors: error.fields,
      notice: { kind: "error", text: "Please fix the problems below." },
    }, error.status);
  }
  if (error instanceof VerificationFailedError) {
    return renderAuthPage(c, deps, mode, {
      email,
      notice: {
        kind: "error",
        text:
          "The anti-bot check did not pass. Wait until it says it is done, then send the form again.",
      },
    }, 403);
  }
  if (error instanceof LoginFailedError) {
    return renderAuthPage(c, deps, mode, {
      email,
      notice: { kind: "error", text: error.message },
    }, 401);
  }
  if (error instanceof RateLimitedError) {
    return renderAuthPage(c, deps, mode, {
      email,
      notice: { kind: "error", text: error.message },
      retryAfterSeconds: error.retryAfterSeconds,
    }, 429);
  }
  return null;
}

/**
 * Handles a sign-up or sign-in post: the form token, the credentials to `run` (signUp or logIn),
 * then a fresh session and 303 to /account (JSON for a fetch); a refusal re-renders the form.
 */
export async function submitAuthForm(
  c: Context<AppEnv>,
  deps: AppDeps,
  mode: AuthMode,
  run: (input: { email: string; password: string; turnstileToken: string; ip: string }) => Promise<
    { id: string }
  >,
  jsonStatus: 200 | 201,
): Promise<Response> {
  const form = await readFormBody(c.req.raw);
  await assertAnonymousFormToken(c, deps, presentedToken(c, form));
  const email = field(form, "email");
  try {
    const account = await run({
      email,
      password: field(form, "password"),
      turnstileToken: field(form, "turnstileToken"),
      ip: c.get("clientIp"),
    });
    await openSession(c, deps, "client", account.id);
    c.header("Cache-Control", "no-store");
    if (wantsJson(c)) return c.json({ ok: true, location: "/account" }, jsonStatus);
    return c.redirect("/account", 303);
  } catch (error) {
    if (wantsJson(c)) throw error;
    const page = refusedAuthPage(c, deps, mode, email, error);
    if (page) return page;
    throw error;
  }
}

/** The e-mail of the signed-in client account, if any (for "you are signed in as ..."). */
export async function signedInEmail(c: Context<AppEnv>, deps: AppDeps): Promise<string | null> {
  const accountId = c.get("session")?.accountId;
  return accountId ? (await accountsOf(deps.store).getAccount(accountId))?.email ?? null : null;
}

/** The /account/login routes. */
export function loginRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(pageErrors(deps));
  app.use("*", crossSiteGuard(deps));
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
  allowOnly(app, "/", ["GET", "HEAD", "POST"]);
  return app;
}
