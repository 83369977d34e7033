/**
 * The sign-up, login and administrator login pages: one server-rendered form each (plain POST,
 * works without JavaScript) with the AuthForm island for inline validation, the challenge widget,
 * and the form token of lib/kit/web/csrf.ts. A refused post re-renders the page with the reasons next to
 * the fields, the e-mail kept and the password never echoed.
 */
import type { VNode } from "preact";
import type { ChallengeWidget } from "../../../kit/auth/challenge.ts";
import { MAX_PASSWORD, MIN_PASSWORD } from "../../../kit/auth/account_rules.ts";
import { LIMITS } from "../../../kit/limits/limits.ts";
import { AuthForm } from "../../../../islands/AuthForm.tsx";
import { ChallengeField, Island } from "../../../kit/ui/layout.tsx";
import { PATHS } from "../../../kit/report_urls.ts";

/** Which form. */
export type AuthMode = "signup" | "login" | "admin";

/** What a (re-)rendered form shows. */
export interface AuthPageState {
  email?: string;
  errors?: { email?: string; password?: string };
  notice?: { kind: "error" | "success" | "info"; text: string } | null;
  /** Set when the visitor is already signed in to a client account. */
  signedInAs?: string | null;
  /** Set when the administrator login cannot be used (the form is not shown). */
  disabled?: string | null;
  retryAfterSeconds?: number;
  /**
   * The sign-in needs the harder check (lib/kit/auth/login_guard.ts): the controller hands the
   * view a widget that asks for it.
   */
  harder?: boolean;
}

const COPY: Record<
  AuthMode,
  { title: string; description: string; action: string; submit: string }
> = {
  signup: {
    title: "Create a free account",
    description: "Sign up to watch your sites, get alerts when they get worse, ask the AI " +
      "assistants about them, and get API keys for scripts and pipelines.",
    action: PATHS.accountSignup,
    submit: "Create account",
  },
  login: {
    title: "Sign in",
    description: "Sign in to your watched sites, alerts, AI answers and API keys.",
    action: PATHS.accountLogin,
    submit: "Sign in",
  },
  admin: {
    title: "Administrator sign-in",
    description: "Sign-in for the site owner.",
    action: PATHS.adminLogin,
    submit: "Sign in",
  },
};

/** The page title and description of a form. */
export function authPageMeta(mode: AuthMode): { title: string; description: string } {
  return { title: COPY[mode].title, description: COPY[mode].description };
}

/**
 * An authentication page's body: the form with its form token (`csrf`) and the challenge
 * `widget`, or why the form cannot be used (`state.disabled`).
 */
export function AuthPage(props: {
  mode: AuthMode;
  state: AuthPageState;
  csrf: string;
  widget: ChallengeWidget;
}): VNode {
  const { mode, state, csrf, widget } = props;
  const copy = COPY[mode];
  const noEmail = (
    <div class="notice no-email">
      <strong>No e-mail is ever sent.</strong>{" "}
      There is no address verification and no password reset: if you lose your password, the account
      cannot be recovered. Keep it in a password manager (a new account and new keys take a minute).
    </div>
  );
  return (
    <div class="narrow auth-page">
      <h1>{copy.title}</h1>
      {mode === "signup" && (
        <>
          <p class="lead">With a free account you can:</p>
          <ul class="signup-offers">
            <li>
              <strong>Watch your site</strong>: it is checked again every day or week, and you get
              an e-mail or a webhook when something gets worse.
            </li>
            <li>
              <strong>Ask the AI assistants</strong>{" "}
              (ChatGPT, Perplexity, Claude, Gemini) the questions your customers ask, and see how
              often they name and cite your site, beside your competitors.
            </li>
            <li>
              <strong>Use API keys</strong> in scripts and pipelines: each key has its own{" "}
              {LIMITS.key} new scans per hour.
            </li>
          </ul>
        </>
      )}
      {state.signedInAs && (
        <p class="notice">
          You are signed in as <strong>{state.signedInAs}</strong>.{" "}
          <a href={PATHS.account}>Go to your account</a>.
        </p>
      )}
      {state.notice && (
        <p
          class={`notice ${state.notice.kind === "info" ? "" : state.notice.kind}`}
          role={state.notice.kind === "error" ? "alert" : "status"}
          data-retry-after={state.retryAfterSeconds !== undefined
            ? String(state.retryAfterSeconds)
            : undefined}
        >
          {state.notice.text}
        </p>
      )}
      {mode !== "admin" && noEmail}
      {!state.disabled && (
        <noscript>
          <p class="notice error">
            The anti-bot check needs JavaScript: with it turned off, this form cannot be sent
            successfully. Once signed in, the key pages work without JavaScript.
          </p>
        </noscript>
      )}
      {state.disabled
        ? <p class="notice error" role="alert">{state.disabled}</p>
        : (
          <form class="card auth-form" method="post" action={copy.action}>
            <input type="hidden" name="csrf" value={csrf} />
            <Island
              name="AuthForm"
              component={AuthForm}
              props={{
                mode,
                email: state.email ?? "",
                errors: state.errors ?? {},
                minPassword: MIN_PASSWORD,
                maxPassword: MAX_PASSWORD,
              }}
            />
            <ChallengeField widget={widget} />
            <button type="submit">{copy.submit}</button>
          </form>
        )}
      {mode === "signup" && (
        <p>
          Already have an account? <a href={PATHS.accountLogin}>Sign in</a>.
        </p>
      )}
      {mode === "login" && (
        <>
          <p>
            No account yet? <a href={PATHS.accountSignup}>Create one for free</a>.
          </p>
          <p class="hint">
            Forgot your password? It cannot be reset, because no e-mail is ever sent: create a new
            account and new keys.
          </p>
        </>
      )}
    </div>
  );
}
