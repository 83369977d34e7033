/**
 * How long a self-hosted challenge (ALTCHA, lib/kit/auth/altcha.ts) lives, shared by the server
 * that refuses an older one and the browser forms that renew theirs before it gets that old
 * (islands/challenge_renewal.ts).
 */

/** How long a challenge may be solved and submitted. */
export const ALTCHA_TTL_MS = 10 * 60_000;

/**
 * A form renews its challenge this long after fetching it: a minute before the server would
 * refuse it, so a token is never sent in its last minute (a slow request, a clock a little off).
 */
export const ALTCHA_RENEW_AFTER_MS = ALTCHA_TTL_MS - 60_000;
