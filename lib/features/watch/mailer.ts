/**
 * The mailer of e-mail alerts (lib/features/watch/email.ts): nodemailer over the operator's own
 * SMTP server (SMTP_URL), with a deadline on each step. A connection to a server the operator
 * configured, never to a host a user names (docs/security.md says why it is not the page fetcher).
 */
import nodemailer from "nodemailer";

/** What one mail is. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

/** Sends mails (nodemailer over the operator's SMTP server; tests may replace it). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** How long one SMTP step may take. */
const SMTP_TIMEOUT_MS = 10_000;

/** The mailer of SMTP_URL, or null without one. */
export function createMailer(smtp: { url: string; from: string } | null): Mailer | null {
  if (!smtp) return null;
  const transport = nodemailer.createTransport(smtp.url, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as Record<string, unknown>);
  return {
    async send(m) {
      await transport.sendMail({
        from: smtp.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        headers: m.headers,
      });
    },
    close: () => transport.close(),
  };
}
