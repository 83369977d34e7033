/**
 * E-mail alerts, for the site owner who is not a developer: a watch may name an address; the
 * address gets a confirmation mail first (a link to a page whose button confirms it: a mail
 * scanner that follows links confirms nothing), and only a confirmed address gets alerts. Every
 * alert carries an unsubscribe link (a page with a button) and the List-Unsubscribe and
 * List-Unsubscribe-Post headers (RFC 8058 one-click: https://www.rfc-editor.org/rfc/rfc8058,
 * checked 2026-12-06), which stop the e-mails of that watch at once.
 *
 * Mails go through the operator's own SMTP server (SMTP_URL) with nodemailer: a connection to a
 * server the operator configured, never to a host a user names, so it does not go through the page
 * fetcher (docs/security.md says why). The address is sealed at rest like a webhook URL; the
 * tokens are kept as SHA-256 hashes only.
 */
import { randomToken, sha256Hex } from "../../kit/auth/crypto.ts";
import { BadRequestError, NotFoundError } from "../../kit/errors.ts";
import type { WatchDeps } from "./context.ts";
import type { Delivery, Watch } from "./store_types.ts";
import type { WatchEvent } from "./payload.ts";
import { PATHS } from "../../kit/report_urls.ts";
export { createMailer, type Mailer, type MailMessage } from "./mailer.ts";

/** An address as the API takes it: one plain address, no name, no list. */
export function checkEmail(value: string): string {
  const v = value.trim();
  // Checked part by part, a character at a time (no pattern over the whole value).
  const [user, host, more] = v.split("@");
  const labels = host?.split(".") ?? [];
  const ok = v.length <= 254 && more === undefined && user !== undefined &&
    user.length >= 1 && user.length <= 64 && [...user].every((ch) => /[A-Za-z0-9._%+-]/.test(ch)) &&
    labels.length >= 2 &&
    labels.every((l) =>
      l.length >= 1 && l.length <= 63 && [...l].every((ch) => /[A-Za-z0-9-]/.test(ch))
    );
  if (!ok) throw new BadRequestError("email must be one address such as owner@example.com");
  return v.toLowerCase();
}

/** The address as pages show it ("o…@example.com"). */
export function emailDisplay(address: string): string {
  const [user, host] = address.split("@");
  return `${user.slice(0, 1)}…@${host}`;
}

/** New tokens of a watch's address: their values (to mail) and their hashes (to keep). */
export function emailTokens(): { confirm: string; unsubscribe: string } {
  return { confirm: randomToken(32), unsubscribe: randomToken(32) };
}

/** The hash a token is kept and found by. */
export function tokenHash(token: string): string {
  return sha256Hex(token);
}

/** The links of a watch's mails. */
export function emailLinks(origin: string, token: { confirm?: string; unsubscribe?: string }) {
  return {
    confirm: token.confirm ? `${origin}${PATHS.watchEmailConfirm}?token=${token.confirm}` : null,
    unsubscribe: token.unsubscribe
      ? `${origin}${PATHS.watchEmailUnsubscribe}?token=${token.unsubscribe}`
      : null,
  };
}

/** The body of an e-mail delivery (kept as the delivery's body, sent as it is). */
export interface EmailBody {
  subject: string;
  text: string;
  /** The unsubscribe link (also the List-Unsubscribe header), null for the confirmation. */
  unsubscribe: string | null;
}

/** The confirmation mail. */
export function confirmationMail(w: Watch, link: string, title: string): EmailBody {
  return {
    subject: `Confirm the alerts for ${w.target}`,
    text: [
      `Someone (we hope you) asked ${title} to e-mail this address when ${w.target} gets worse.`,
      "",
      `To confirm, open this link and press the button: ${link}`,
      "",
      "If it was not you, ignore this mail: nothing will be sent without the confirmation.",
    ].join("\n"),
    unsubscribe: null,
  };
}

/** The alert mail of a regression. */
export function alertMail(event: WatchEvent, unsubscribe: string): EmailBody {
  const score = event.from?.score != null && event.to?.score != null
    ? ` (score ${Math.round(event.from.score)} to ${Math.round(event.to.score)})`
    : "";
  return {
    subject: `${event.watch.target} got worse${score}`,
    text: [
      `${event.watch.target} got worse${score}:`,
      ...event.regressions.map((r) => `- ${r.text}`),
      "",
      `The report: ${event.links.report}`,
      `What changed: ${event.links.changes}`,
      "",
      `To stop these e-mails: ${unsubscribe}`,
    ].join("\n").slice(0, 16_000),
    unsubscribe,
  };
}

/** A delivery of an e-mail, due at once. */
export function emailDelivery(
  w: Watch,
  event: Delivery["event"],
  body: EmailBody,
  now: number,
): Delivery {
  return {
    id: crypto.randomUUID(),
    watchId: w.id,
    accountId: w.accountId,
    target: w.target,
    event,
    createdAt: now,
    format: "json",
    channel: "email",
    body: JSON.stringify(body),
    state: "pending",
    attempts: [],
    nextAttemptAt: now,
  };
}

/** Sends an e-mail delivery to the watch's address (opened from its seal). */
export async function sendEmailDelivery(
  deps: WatchDeps,
  w: Watch,
  d: Delivery,
): Promise<{ status: number | null; answer: string; retry: boolean }> {
  if (!deps.mailer) {
    return { status: null, answer: "no SMTP server is configured (SMTP_URL)", retry: false };
  }
  if (!w.email) return { status: null, answer: "the watch has no address any more", retry: false };
  if (d.event !== "watch.email_confirm" && w.email.state !== "confirmed") {
    return { status: null, answer: "the address is not confirmed", retry: false };
  }
  const to = await (await deps.box()).open(w.email.address, w.id);
  if (!to) return { status: null, answer: "the address could not be decrypted", retry: false };
  const body = JSON.parse(d.body) as EmailBody;
  try {
    await deps.mailer.send({
      to,
      subject: body.subject,
      text: body.text,
      headers: body.unsubscribe
        ? {
          "List-Unsubscribe": `<${body.unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        : undefined,
    });
    return { status: 250, answer: "accepted by the mail server", retry: false };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode ?? null;
    return {
      status: code,
      answer: `the mail server refused or could not be reached: ${
        String((error as Error).message).slice(0, 200)
      }`,
      // A 5xx reply is permanent (the address refused); anything else may pass later.
      retry: !(code !== null && code >= 500),
    };
  }
}

/** What a token did: the watch's target and what is true now. */
export interface EmailTokenOutcome {
  target: string;
  done: "confirmed" | "unsubscribed" | "already";
}

/**
 * Confirms (kind "confirm") or unsubscribes (kind "unsubscribe") the address a token names.
 * Unsubscribing removes the address and both its tokens from the watch at once (a delivery not
 * yet sent is cancelled when its turn comes). @throws NotFoundError for a token that names nothing.
 */
export async function useEmailToken(
  deps: WatchDeps,
  token: string,
  kind: "confirm" | "unsubscribe",
): Promise<EmailTokenOutcome> {
  const wellFormed = token.length >= 20 && token.length <= 100 &&
    [...token].every((ch) => /[A-Za-z0-9_-]/.test(ch));
  const hash = wellFormed ? tokenHash(token) : "";
  const ref = hash ? await deps.watches.emailToken(hash) : null;
  if (!ref || ref.kind !== kind) {
    throw new NotFoundError(
      kind === "confirm"
        ? "This confirmation link is not valid (any more)."
        : "This link is not valid any more: the address was already removed.",
    );
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await deps.watches.get(ref.accountId, ref.watchId);
    const w = entry.value;
    if (!w?.email) throw new NotFoundError("This link is not valid any more.");
    if (kind === "confirm" && w.email.state === "confirmed") {
      return { target: w.target, done: "already" };
    }
    const next: Watch = kind === "confirm"
      ? { ...w, email: { ...w.email, state: "confirmed" } }
      : { ...w, email: null };
    const email = w.email;
    const ok = await deps.watches.save(
      entry as Deno.KvEntry<Watch>,
      next,
      kind === "unsubscribe"
        ? (op) => {
          deps.watches.forgetEmailToken(op, email.confirmHash);
          deps.watches.forgetEmailToken(op, email.unsubscribeHash);
        }
        : undefined,
    );
    if (ok) {
      deps.log({ event: `watch.email_${kind}`, watchId: w.id });
      return { target: w.target, done: kind === "confirm" ? "confirmed" : "unsubscribed" };
    }
  }
  throw new Error("useEmailToken: too much contention");
}
