/**
 * The e-mail and password fields of the sign-up, login and administrator login forms, with inline
 * validation (the same rules as the server, lib/kit/auth/account_rules.ts) and the state of the anti-bot
 * check. The form itself, its hidden token, the challenge widget and the submit button are
 * server-rendered around this island, so the form posts normally without JavaScript.
 *
 * Once hydrated: fields are checked as they are left and on submit; a submit before the challenge
 * is solved waits for it and then goes ahead by itself.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { VNode } from "preact";
import { checkEmail, checkPassword, passwordLength } from "../lib/kit/auth/account_rules.ts";
import { challengeRenewal } from "./challenge_renewal.ts";

/** Props (JSON, from the server). */
export interface AuthFormProps {
  mode: "signup" | "login" | "admin";
  /** The e-mail entered before (kept after a refused post; a password never is). */
  email: string;
  errors: { email?: string; password?: string };
  minPassword: number;
  maxPassword: number;
}

type ChallengeState = "waiting" | "verifying" | "verified" | "error";

const CHALLENGE_TEXT: Record<ChallengeState, string> = {
  waiting: "Checking that you are not a bot…",
  verifying: "Checking that you are not a bot…",
  verified: "Anti-bot check done.",
  error: "The anti-bot check failed. Reload the page to try again.",
};

/** The fields of an authentication form. */
export function AuthForm(props: AuthFormProps): VNode {
  const signup = props.mode === "signup";
  const [email, setEmail] = useState(props.email);
  const [emailError, setEmailError] = useState(props.errors.email ?? "");
  const [passwordError, setPasswordError] = useState(props.errors.password ?? "");
  const [length, setLength] = useState(0);
  const [hydrated, setHydrated] = useState(false);
  const [challenge, setChallenge] = useState<ChallengeState>("waiting");
  const [waitingToSubmit, setWaitingToSubmit] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const pending = useRef(false);

  const emailProblem = (value: string) => {
    if (props.mode === "admin") return "";
    const check = checkEmail(value);
    return check.ok ? "" : check.reason;
  };
  const passwordProblem = (value: string, emailValue: string) => {
    if (!signup) return value ? "" : "Enter your password.";
    return checkPassword(value, checkEmail(emailValue).ok ? emailValue : undefined) ?? "";
  };

  useEffect(() => {
    setHydrated(true);
    const form = root.current?.closest("form");
    if (!form) return;
    // Our own messages replace the browser's validation bubbles.
    form.noValidate = true;
    const token = () =>
      (form.elements.namedItem("turnstileToken") as HTMLInputElement | null)?.value ?? "";
    const widget = form.querySelector("altcha-widget");
    // Renews a challenge fetched too long ago (islands/challenge_renewal.ts).
    const renewal = challengeRenewal(form);
    const onState = (e: Event) => {
      const state = (e as CustomEvent<{ state?: string }>).detail?.state;
      const next: ChallengeState = state === "verified"
        ? "verified"
        : state === "error" || state === "expired"
        ? "error"
        : "verifying";
      setChallenge(next);
      if (next === "verified" && pending.current) {
        pending.current = false;
        setWaitingToSubmit(false);
        form.requestSubmit();
      }
    };
    widget?.addEventListener("statechange", onState);
    if (token()) setChallenge("verified");
    const onSubmit = (e: SubmitEvent) => {
      const emailValue = emailInput.current?.value ?? "";
      const passwordValue = passwordInput.current?.value ?? "";
      const ep = emailProblem(emailValue);
      const pp = passwordProblem(passwordValue, emailValue);
      setEmailError(ep);
      setPasswordError(pp);
      if (ep || pp) {
        e.preventDefault();
        (ep ? emailInput : passwordInput).current?.focus();
        return;
      }
      if (!token() || renewal.stale()) {
        // Not solved yet, or too long ago: go ahead as soon as it is (ALTCHA), or ask to wait
        // (Turnstile).
        e.preventDefault();
        if (renewal.stale()) renewal.renew();
        pending.current = true;
        setWaitingToSubmit(true);
      }
    };
    form.addEventListener("submit", onSubmit);
    // A Turnstile token arrives without an event we can listen to: look for it now and then.
    const poll = widget ? 0 : setInterval(() => {
      if (token()) {
        setChallenge("verified");
        if (pending.current) {
          pending.current = false;
          setWaitingToSubmit(false);
          form.requestSubmit();
        }
      }
    }, 500);
    return () => {
      widget?.removeEventListener("statechange", onState);
      form.removeEventListener("submit", onSubmit);
      if (poll) clearInterval(poll);
    };
  }, []);

  return (
    <div class="auth-fields" ref={root}>
      {props.mode !== "admin" && (
        <div class="field">
          <label for="email">E-mail address</label>
          <input
            id="email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete={signup ? "email" : "username"}
            spellcheck={false}
            value={email}
            ref={emailInput}
            onInput={(e) => {
              setEmail((e.currentTarget as HTMLInputElement).value);
              if (emailError) setEmailError("");
            }}
            onBlur={(e) => {
              const v = (e.currentTarget as HTMLInputElement).value;
              if (v) setEmailError(emailProblem(v));
            }}
            aria-invalid={emailError ? "true" : undefined}
            aria-describedby={emailError ? "email-error" : undefined}
          />
          {emailError && <p id="email-error" class="error-text">{emailError}</p>}
        </div>
      )}
      <div class="field">
        <label for="password">
          Password
          {signup && (
            <span class="hint" id="password-hint">
              At least {props.minPassword}{" "}
              characters. A passphrase of a few words is easy to type and hard to guess.
            </span>
          )}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={signup ? props.minPassword : undefined}
          maxLength={props.maxPassword}
          autoComplete={signup ? "new-password" : "current-password"}
          ref={passwordInput}
          onInput={(e) => {
            setLength(passwordLength((e.currentTarget as HTMLInputElement).value));
            if (passwordError) setPasswordError("");
          }}
          onBlur={(e) => {
            const v = (e.currentTarget as HTMLInputElement).value;
            if (v && signup) setPasswordError(passwordProblem(v, email));
          }}
          aria-invalid={passwordError ? "true" : undefined}
          aria-describedby={[signup ? "password-hint" : "", passwordError ? "password-error" : ""]
            .filter(Boolean).join(" ") || undefined}
        />
        {signup && hydrated && (
          <p class={`hint counter${length >= props.minPassword ? " ok" : ""}`}>
            {length} character{length === 1 ? "" : "s"}
            {length < props.minPassword ? ` (${props.minPassword - length} more needed)` : " ✓"}
          </p>
        )}
        {passwordError && <p id="password-error" class="error-text">{passwordError}</p>}
      </div>
      {hydrated && (
        <p class={`hint challenge-status ${challenge}`} role="status" aria-live="polite">
          {waitingToSubmit && challenge !== "error"
            ? "Finishing the anti-bot check; the form is sent as soon as it is done…"
            : CHALLENGE_TEXT[challenge]}
        </p>
      )}
    </div>
  );
}
