/**
 * The signup rules for e-mail addresses and passwords, as pure functions with no dependencies, so
 * the server (lib/features/accounts/accounts.ts) and the sign-up island (islands/AuthForm.tsx) apply exactly the same
 * rules and give the same reasons.
 *
 * @example
 * ```ts
 * checkEmail(" Ada@Example.COM ");     // { ok: true, email: "ada@example.com" }
 * checkEmail("ada@localhost");         // { ok: false, reason: "The domain of ... needs a dot ..." }
 * checkPassword("short");              // "Use at least 12 characters (this one has 5)."
 * ```
 */

/** Shortest accepted password, in characters (the spec's minimum). */
export const MIN_PASSWORD = 12;
/** Longest accepted password, in characters: long passphrases fit, megabyte bodies do not. */
export const MAX_PASSWORD = 256;
/** Longest accepted e-mail address (RFC 5321 path limit). */
export const MAX_EMAIL = 254;

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The outcome of {@link checkEmail}. */
export type EmailCheck = { ok: true; email: string } | { ok: false; reason: string };

/**
 * Checks that an address looks plausible (syntax, and a domain with a dot) and normalises it:
 * trimmed, lowercased, an internationalised domain in its ASCII (punycode) form. Nothing is sent
 * to the address, so this is the only check it ever gets.
 */
export function checkEmail(raw: string): EmailCheck {
  const value = raw.trim();
  if (!value) return { ok: false, reason: "Enter your e-mail address." };
  if (value.length > MAX_EMAIL) {
    return { ok: false, reason: `That e-mail address is longer than ${MAX_EMAIL} characters.` };
  }
  const syntax = {
    ok: false,
    reason: "That does not look like an e-mail address; use the form name@example.com.",
  } as const;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return syntax;
  const local = value.slice(0, at);
  const domainRaw = value.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return syntax;
  if (/[\s@/\\?#[\]:]/.test(domainRaw)) return syntax;
  let domain: string;
  try {
    domain = new URL(`http://${domainRaw}/`).hostname;
  } catch {
    return syntax;
  }
  if (domain.endsWith(".")) domain = domain.slice(0, -1);
  const labels = domain.split(".");
  if (labels.length < 2) {
    return {
      ok: false,
      reason: "The domain of that e-mail address needs a dot, like name@example.com.",
    };
  }
  if (!labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels[labels.length - 1])) {
    return syntax;
  }
  return { ok: true, email: `${local.toLowerCase()}@${domain}` };
}

/** The length of a password in characters (code points, after NFKC normalisation). */
export function passwordLength(password: string): number {
  return [...normalisePassword(password)].length;
}

/**
 * NIST SP 800-63B: passwords are compared after Unicode normalisation (NFKC), so the same
 * passphrase typed on two keyboards is the same password.
 */
export function normalisePassword(password: string): string {
  return password.normalize("NFKC");
}

/** Why a password is refused, or null when it is acceptable. */
export function checkPassword(password: string, email?: string): string | null {
  const length = passwordLength(password);
  if (length === 0) return "Enter a password.";
  if (length < MIN_PASSWORD) {
    return `Use at least ${MIN_PASSWORD} characters (this one has ${length}).`;
  }
  if (length > MAX_PASSWORD) return `Use at most ${MAX_PASSWORD} characters.`;
  if (email && normalisePassword(password).trim().toLowerCase() === email.trim().toLowerCase()) {
    return "Do not use your e-mail address as your password.";
  }
  return null;
}

/** The outcome of {@link checkKeyName}. */
export type KeyNameCheck = { ok: true; name: string } | { ok: false; reason: string };

/**
 * Checks an API key's name: trimmed, inner whitespace collapsed, 1 to `max` printable characters
 * (the server and the key manager island give the same reasons).
 */
export function checkKeyName(raw: string, max: number): KeyNameCheck {
  const name = raw.replace(/\s+/g, " ").trim();
  if (!name) return { ok: false, reason: "Give the key a name, e.g. where it will be used." };
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return { ok: false, reason: "A key name cannot contain control characters." };
  }
  if ([...name].length > max) {
    return { ok: false, reason: `Key names are at most ${max} characters.` };
  }
  return { ok: true, name };
}
