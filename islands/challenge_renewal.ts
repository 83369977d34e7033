/**
 * Keeps a form's ALTCHA token young enough to be accepted. The server refuses a challenge
 * {@link ALTCHA_TTL_MS} after issuing it, and the widget does not know that (the expiry is
 * signed inside the challenge's data, checked against the server's clock), so a form left open
 * longer used to send a dead token and show "Verification failed. Please retry.".
 *
 * A form's renewal fetches a fresh challenge {@link ALTCHA_RENEW_AFTER_MS} after the last one was
 * fetched (a timer), and again at submit when the token is older than that (timers do not run
 * while a laptop sleeps or a background tab is throttled; the age is read from the clock then).
 * Turnstile renews its own tokens (its widget's default `refresh-expired: auto`).
 */
import { ALTCHA_RENEW_AFTER_MS, ALTCHA_TTL_MS } from "../lib/kit/auth/challenge_ttl.ts";

export { ALTCHA_TTL_MS };

type AltchaElement = HTMLElement & {
  verify?: () => Promise<unknown>;
  reset?: () => void;
};

/** One form's renewal. */
export interface ChallengeRenewal {
  /**
   * When the token is too old to send: drops it, solves a fresh challenge and resolves with the
   * new token (null if none came within `timeoutMs`). Else resolves with null at once (the token
   * in the form may be sent).
   */
  fresh(timeoutMs: number): Promise<string | null>;
  /** True when the token is too old to send (call {@link fresh} first). */
  stale(): boolean;
  /** Drops the token and solves a fresh challenge now. */
  renew(): void;
}

const renewals = new WeakMap<HTMLFormElement, ChallengeRenewal>();

/** The renewal of `form`'s ALTCHA widget (one per form, started on first use). */
export function challengeRenewal(form: HTMLFormElement): ChallengeRenewal {
  const known = renewals.get(form);
  if (known) return known;
  const widget = form.querySelector<AltchaElement>("altcha-widget");
  let fetchedAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let verified: ((token: string) => void)[] = [];
  const renew = () => {
    clearTimeout(timer);
    fetchedAt = null;
    if (!widget?.reset) return;
    widget.reset();
    void widget.verify?.();
  };
  const fetched = () => {
    fetchedAt = Date.now();
    clearTimeout(timer);
    timer = setTimeout(renew, ALTCHA_RENEW_AFTER_MS);
  };
  // A widget that started before this (it solves on load) fetched its challenge about now.
  const state = (widget as { getState?: () => string } | null)?.getState?.();
  const token = (form.elements.namedItem("turnstileToken") as HTMLInputElement | null)?.value;
  if (state === "verifying" || state === "verified" || token) fetched();
  // The widget's states: "verifying" as it fetches a challenge, "verified" with a token,
  // "expired" if it ever learns of an expiry itself.
  widget?.addEventListener("statechange", (e) => {
    const state = (e as CustomEvent<{ state?: string }>).detail?.state;
    if (state === "verifying") {
      fetched();
    } else if (state === "verified") {
      // The token from the event itself: the widget's hidden field may be updated a tick later.
      const token = (e as CustomEvent<{ payload?: string }>).detail?.payload ?? "";
      const waiting = verified;
      verified = [];
      for (const resolve of waiting) resolve(token);
    } else if (state === "expired") renew();
  });
  const stale = () => fetchedAt !== null && Date.now() - fetchedAt >= ALTCHA_RENEW_AFTER_MS;
  const renewal: ChallengeRenewal = {
    stale,
    renew,
    fresh(timeoutMs) {
      if (!widget || !stale()) return Promise.resolve(null);
      const solved = new Promise<string | null>((resolve) => {
        const timeout = setTimeout(() => resolve(null), timeoutMs);
        verified.push((token) => {
          clearTimeout(timeout);
          resolve(token || null);
        });
      });
      renew();
      return solved;
    },
  };
  renewals.set(form, renewal);
  return renewal;
}
