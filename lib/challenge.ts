/**
 * The browser challenge check. Cloudflare Turnstile's siteverify protocol: a form POST of
 * `secret`, `response` and `remoteip` to TURNSTILE_VERIFY_URL, answered `{"success": true|false}`.
 * It fails closed: no secret configured, a verifier that is down, slow or answers garbage all
 * mean "not verified".
 */
import { z } from "zod";
import type { GuardedFetcher } from "./net/types.ts";

/** Verifies a challenge token for a client IP. */
export type ChallengeVerifier = (token: string, remoteIp: string) => Promise<boolean>;

const SiteverifyAnswer = z.object({ success: z.boolean() });

/** Longest token accepted (Turnstile tokens are ~2 KB at most). */
export const MAX_TOKEN_LENGTH = 4096;

/** A verifier that asks a Turnstile-compatible siteverify endpoint through the guarded fetcher. */
export function turnstileVerifier(options: {
  secret: string | undefined;
  verifyUrl: string;
  fetcher: GuardedFetcher;
  timeoutMs?: number;
}): ChallengeVerifier {
  return async (token, remoteIp) => {
    if (!options.secret || !token || token.length > MAX_TOKEN_LENGTH) return false;
    try {
      const res = await options.fetcher.fetch(options.verifyUrl, {
        method: "POST",
        body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
        headers: { accept: "application/json" },
        timeoutMs: options.timeoutMs ?? 5000,
        maxBytes: 64 * 1024,
      });
      if (res.status !== 200) return false;
      const parsed = SiteverifyAnswer.safeParse(JSON.parse(res.body));
      return parsed.success && parsed.data.success;
    } catch {
      return false;
    }
  };
}

/** What the browser form needs to show the challenge. */
export type ChallengeWidget =
  | { kind: "turnstile"; siteKey: string }
  | { kind: "altcha"; challengeUrl: string };

/** The configured challenge: Turnstile when its keys are set, else the self-hosted ALTCHA. */
export interface ChallengeProvider {
  widget: ChallengeWidget;
  verify: ChallengeVerifier;
  /** ALTCHA only: a fresh challenge for GET /api/challenge. */
  issue?: () => Promise<unknown>;
}

/** Chooses the provider: Turnstile with both keys set, ALTCHA otherwise. */
export function challengeProvider(options: {
  turnstileSiteKey: string | undefined;
  turnstileSecretKey: string | undefined;
  turnstile: ChallengeVerifier;
  altcha: { challenge(): Promise<unknown>; verify(token: string): Promise<boolean> };
}): ChallengeProvider {
  if (options.turnstileSiteKey && options.turnstileSecretKey) {
    return {
      widget: { kind: "turnstile", siteKey: options.turnstileSiteKey },
      verify: options.turnstile,
    };
  }
  return {
    widget: { kind: "altcha", challengeUrl: "/api/challenge" },
    verify: (token) => options.altcha.verify(token),
    issue: () => options.altcha.challenge(),
  };
}
