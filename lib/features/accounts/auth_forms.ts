/**
 * The sign-up and sign-in forms' shared handling (lib/features/accounts/routes/account/signup.tsx, login.tsx and
 * lib/features/accounts/routes/admin/login.tsx): the form token, the credentials, a fresh session, and a refused form
 * re-rendered with what was wrong.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../kit/web/context.ts";
import { FieldError, LoginFailedError } from "./accounts.ts";
import {
  anonymousFormToken,
  assertAnonymousFormToken,
  presentedToken,
} from "../../kit/web/csrf.ts";
import { HarderCheckNeededError } from "../../kit/auth/login_guard.ts";
import { RateLimitedError, VerificationFailedError } from "../../kit/errors.ts";
import { field, readFormBody, wantsJson } from "../../kit/web/http_form.ts";
import { openSession } from "../../kit/web/sessions.ts";
import { type AuthMode, AuthPage, authPageMeta, type AuthPageState } from "./views/auth_page.tsx";
import type { ChallengeWidget } from "../../kit/auth/challenge.ts";
import { ACCOUNT_STYLES } from "../../kit/ui/error_page.tsx";
import { pageWithStatus } from "../../kit/web/page_errors.tsx";
import { renderPage } from "../../kit/web/render.tsx";
import { shellFor } from "../../kit/web/shell.ts";
import { PATHS } from "../../kit/report_urls.ts";

/**
 * Renders an authentication page with a status (400 for refused fields, 429 when limited...): a
 * fresh anonymous form token, the challenge widget unless the form is disabled, Retry-After when
 * the visitor must wait.
 */
export function renderAuthPage(
  c: Context,
  deps: AppDeps,
  mode: AuthMode,
  state: AuthPageState = {},
  status = 200,
): Response {
  const csrf = anonymousFormToken(c, deps);
  const widget = harderWidget(deps.challenge.widget, state.harder);
  if (state.retryAfterSeconds !== undefined) {
    c.header("Retry-After", String(state.retryAfterSeconds));
  }
  return pageWithStatus(status, (s) =>
    renderPage(
      c,
      { ...authPageMeta(mode), noindex: true },
      shellFor(c, deps, {
        islands: "account",
        challenge: state.disabled ? null : widget,
        styles: ACCOUNT_STYLES,
      }),
      AuthPage({ mode, state, csrf, widget }),
      s,
    ));
}

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
      harder: error.harder,
    }, 401);
  }
  if (error instanceof HarderCheckNeededError) {
    return renderAuthPage(c, deps, mode, {
      email,
      notice: { kind: "error", text: error.message },
      harder: true,
    }, 403);
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
    if (wantsJson(c)) return c.json({ ok: true, location: PATHS.account }, jsonStatus);
    return c.redirect(PATHS.account, 303);
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
  return accountId ? (await deps.accounts.getAccount(accountId))?.email ?? null : null;
}

/** The widget, asking for the harder check when the sign-in needs it (ALTCHA only). */
function harderWidget(widget: ChallengeWidget, harder?: boolean): ChallengeWidget {
  return harder && widget.kind === "altcha"
    ? { ...widget, challengeUrl: `${widget.challengeUrl}?level=hard` }
    : widget;
}
