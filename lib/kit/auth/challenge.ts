/**
 * The browser challenge check. Cloudflare Turnstile's siteverify protocol: a form POST of
 * `secret`, `response` and `remoteip` to TURNSTILE_VERIFY_URL, answered `{"success": true|false}`.
 * It fails closed: no secret configured, a verifier that is down, slow or answers garbage all
 * mean "not verified".
 */
import { z } from "zod";
import { FetchError, type GuardedFetcher } from "../net/types.ts";
import { PATHS } from "../report_urls.ts";

/**
 * Verifies a challenge token for a client IP; `hard`: only a harder check passes (the ALTCHA
 * proof of work at lib/kit/auth/login_guard.ts's factor; Turnstile has no harder check and ignores
 * it).
 */
export type ChallengeVerifier = (
  token: string,
  remoteIp: string,
  options?: { hard?: boolean },
) => Promise<boolean>;

const SiteverifyAnswer = z.object({
  success: z.boolean(),
  "error-codes": z.array(z.string()).optional().catch(undefined),
  hostname: z.string().optional().catch(undefined),
  action: z.string().optional().catch(undefined),
});

/** Longest token accepted by the challenge forms (ALTCHA payloads included). */
export const MAX_TOKEN_LENGTH = 4096;

/** Cloudflare's documented maximum length of a Turnstile token; longer ones are never sent. */
export const TURNSTILE_MAX_TOKEN_LENGTH = 2048;

/**
 * siteverify error codes that mean the visitor's token is bad (expired, reused, forged): normal
 * traffic. Every other failure (a wrong secret, a bad request, an unreachable or garbled
 * verifier, a token solved on another site) is the operator's to fix.
 */
const VISITOR_ERRORS = new Set([
  "missing-input-response",
  "invalid-input-response",
  "timeout-or-duplicate",
]);

/** Consecutive operator-side failures after which verification counts as failing. */
export const TURNSTILE_FAILING_AFTER = 3;

/** What /healthz and the logs say about Turnstile verification. */
export interface ChallengeHealth {
  kind: "turnstile";
  /** False while verification keeps failing for a reason the operator must fix. */
  ok: boolean;
  consecutiveFailures: number;
  /** Error codes (or a transport reason) of the last operator-side failure; never the secret. */
  lastErrors: string[];
  lastFailureAt: number | null;
}

/**
 * Watches verification outcomes: visitor errors are normal; operator-side failures in a row
 * (a rotated secret, a blocked verify URL, a wrong hostname) flip it to failing, logged once.
 */
export class TurnstileMonitor {
  #failures = 0;
  #lastErrors: string[] = [];
  #lastFailureAt: number | null = null;
  constructor(
    private readonly log: (entry: Record<string, unknown>) => void = (e) =>
      console.error(JSON.stringify(e)),
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one verification; `errors` empty on success. */
  record(success: boolean, errors: string[], operatorSide: boolean): void {
    if (success) {
      if (this.#failures >= TURNSTILE_FAILING_AFTER) this.log({ event: "turnstile.recovered" });
      this.#failures = 0;
      return;
    }
    this.log({ event: "turnstile.rejected", errorCodes: errors, operatorSide });
    if (!operatorSide) return;
    this.#failures++;
    this.#lastErrors = errors;
    this.#lastFailureAt = this.now();
    if (this.#failures === TURNSTILE_FAILING_AFTER) {
      this.log({
        event: "turnstile.failing",
        errorCodes: errors,
        message: "Turnstile verification keeps failing: every scan and sign-up gets 403. Check " +
          "TURNSTILE_SECRET_KEY, TURNSTILE_VERIFY_URL and TURNSTILE_HOSTNAMES.",
      });
    }
  }

  health(): ChallengeHealth {
    return {
      kind: "turnstile",
      ok: this.#failures < TURNSTILE_FAILING_AFTER,
      consecutiveFailures: this.#failures,
      lastErrors: this.#lastErrors,
      lastFailureAt: this.#lastFailureAt,
    };
  }
}

/**
 * A verifier that asks a Turnstile-compatible siteverify endpoint through the guarded fetcher.
 * Fails closed. Checks, besides `success`: the token length (Cloudflare's 2048), the hostname the
 * token was solved on (when `hostnames` is set) and its action (when `action` is set). Every
 * refusal is recorded in `monitor` with siteverify's error codes (never the secret or token).
 */
export function turnstileVerifier(options: {
  secret: string | undefined;
  verifyUrl: string;
  fetcher: GuardedFetcher;
  timeoutMs?: number;
  /** Host names the widget runs on (siteverify's `hostname`); empty or unset: not checked. */
  hostnames?: string[];
  /** The widget's action (siteverify's `action`); unset: not checked. */
  action?: string;
  monitor?: TurnstileMonitor;
}): ChallengeVerifier {
  const monitor = options.monitor;
  const refuse = (errors: string[], operatorSide: boolean) => {
    monitor?.record(false, errors, operatorSide);
    return false;
  };
  return async (token, remoteIp) => {
    if (!options.secret) return refuse(["no-secret-configured"], true);
    if (!token || token.length > TURNSTILE_MAX_TOKEN_LENGTH) {
      return refuse([token ? "token-too-long" : "missing-input-response"], false);
    }
    let res;
    try {
      res = await options.fetcher.fetch(options.verifyUrl, {
        method: "POST",
        body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
        headers: { accept: "application/json" },
        timeoutMs: options.timeoutMs ?? 5000,
        maxBytes: 64 * 1024,
      });
    } catch (error) {
      // E.g. "blocked": the verify URL resolves to a private address the fetcher refuses.
      const kind = error instanceof FetchError ? error.kind : "network";
      return refuse([`verify-request-failed:${kind}`], true);
    }
    if (res.status !== 200) return refuse([`verify-http-${res.status}`], true);
    let parsed;
    try {
      parsed = SiteverifyAnswer.safeParse(JSON.parse(res.body));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) return refuse(["verify-answer-not-understood"], true);
    const answer = parsed.data;
    if (!answer.success) {
      const codes = (answer["error-codes"] ?? []).map((c) => c.replace(/[^\w-]/g, "").slice(0, 60));
      return refuse(codes, codes.length === 0 || codes.some((c) => !VISITOR_ERRORS.has(c)));
    }
    const hostnames = options.hostnames ?? [];
    if (hostnames.length > 0 && !hostnames.includes((answer.hostname ?? "").toLowerCase())) {
      return refuse(["hostname-mismatch"], true);
    }
    if (options.action !== undefined && answer.action !== options.action) {
      return refuse(["action-mismatch"], false);
    }
    monitor?.record(true, [], false);
    return true;
  };
}

/**
 * Asks siteverify once at start-up with a token that cannot be valid: a working setup answers
 * "invalid-input-response"; a wrong secret answers "invalid-input-secret", which is worth a loud
 * warning before the first visitor sees a 403. Returns the problem, or null when the setup works.
 */
export async function probeTurnstile(options: {
  secret: string;
  verifyUrl: string;
  fetcher: GuardedFetcher;
}): Promise<string | null> {
  try {
    const res = await options.fetcher.fetch(options.verifyUrl, {
      method: "POST",
      body: new URLSearchParams({ secret: options.secret, response: "start-up-probe" }),
      headers: { accept: "application/json" },
      timeoutMs: 5000,
      maxBytes: 64 * 1024,
    });
    if (res.status !== 200) return `siteverify answered HTTP ${res.status}`;
    const answer = SiteverifyAnswer.safeParse(JSON.parse(res.body));
    if (!answer.success) return "siteverify's answer was not understood";
    const codes = answer.data["error-codes"] ?? [];
    const bad = codes.filter((c) => !VISITOR_ERRORS.has(c));
    return bad.length ? `siteverify answered ${bad.join(", ").replace(/[^\w, -]/g, "")}` : null;
  } catch (error) {
    return `siteverify could not be reached (${
      error instanceof FetchError ? error.kind : "network"
    })`;
  }
}

/** What the browser form needs to show the challenge. */
export type ChallengeWidget =
  | { kind: "turnstile"; siteKey: string }
  | { kind: "altcha"; challengeUrl: string };

/** The configured challenge: Turnstile when its keys are set, else the self-hosted ALTCHA. */
export interface ChallengeProvider {
  widget: ChallengeWidget;
  verify: ChallengeVerifier;
  /** Turnstile only: whether verification keeps failing (for /healthz). */
  health?: () => ChallengeHealth;
  /** ALTCHA only: a fresh challenge for GET /api/challenge (`hard`: ?level=hard). */
  issue?: (options?: { hard?: boolean }) => Promise<unknown>;
  /** True when the check can be made harder (ALTCHA): a sign-in past its limits needs it. */
  hardens?: boolean;
}

/** Chooses the provider: Turnstile with both keys set, ALTCHA otherwise. */
export function challengeProvider(options: {
  turnstileSiteKey: string | undefined;
  turnstileSecretKey: string | undefined;
  turnstile: ChallengeVerifier;
  altcha: {
    challenge(options?: { hard?: boolean }): Promise<unknown>;
    verify(token: string, options?: { hard?: boolean }): Promise<boolean>;
  };
  turnstileMonitor?: TurnstileMonitor;
}): ChallengeProvider {
  if (options.turnstileSiteKey && options.turnstileSecretKey) {
    const monitor = options.turnstileMonitor;
    return {
      widget: { kind: "turnstile", siteKey: options.turnstileSiteKey },
      verify: options.turnstile,
      ...(monitor ? { health: () => monitor.health() } : {}),
    };
  }
  return {
    widget: { kind: "altcha", challengeUrl: PATHS.challenge },
    verify: (token, _ip, o) => options.altcha.verify(token, o),
    issue: (o) => options.altcha.challenge(o),
    hardens: true,
  };
}
