/**
 * What an alert says, as the body of a webhook delivery, in the format the watch chose:
 *
 * - "json": our event (documented in docs/watch.md), signed (lib/features/watch/signature.ts);
 * - "slack": a Slack incoming webhook message, `{"text": ...}` with Slack's mrkdwn (Slack: "for a
 *   simple message, your JSON payload only needs to define a text property",
 *   https://api.slack.com/messaging/webhooks, checked 2026-11-26);
 * - "discord": a Discord webhook message, `{"content": ...}` of at most 2,000 characters, with
 *   mentions turned off (https://discord.com/developers/docs/resources/webhook#execute-webhook,
 *   checked 2026-11-26).
 *
 * Every body holds public facts only (the public records' scores, grades and check titles, and
 * public links), never the account or the webhook itself, and is bounded (at most 16 KB); a
 * "watch.logs" event adds counts of the account's own server logs (crawlers, days, shares: never an
 * address or a line), sent to the account's own webhook.
 */
import type { ScanDiff } from "../../engines/history/diff.ts";
import type { Regression } from "../../engines/history/regressions.ts";
import type { WebhookFormat } from "./store_types.ts";

/** The formats a webhook can ask for. */
export const WEBHOOK_FORMATS = [
  "json",
  "slack",
  "discord",
] as const satisfies readonly WebhookFormat[];
export type { WebhookFormat };

/** Whether a string names a webhook format. */
export function isWebhookFormat(value: string): value is WebhookFormat {
  return (WEBHOOK_FORMATS as readonly string[]).includes(value);
}

/** The largest body a delivery carries. */
export const MAX_BODY_BYTES = 16 * 1024;

/** One side of the comparison, as the event shows it. */
export interface EventScan {
  scanId: string;
  scannedAt: string;
  status: "ok" | "failed";
  score: number | null;
  grade: string | null;
  /** The scan's permanent report page (absolute URL). */
  report: string;
}

/**
 * The JSON event of a regression (format "json"), of a test delivery ("watch.ping"), or of the
 * server-log rules ("watch.logs": lib/features/watch/log_alerts.ts; `logs` says what, `from`, `to`
 * and `regressions` are empty, and `links.report` is the account's logs page).
 */
export interface WatchEvent {
  type: "watch.regression" | "watch.ping" | "watch.logs";
  /** The delivery's id (also the webhook-id header). */
  id: string;
  createdAt: string;
  service: string;
  watch: { id: string; target: string; schedule: string };
  domain: string;
  /** The page watched (Schema Markup Generator), else null. */
  url: string | null;
  from: EventScan | null;
  to: EventScan | null;
  regressions: Regression[];
  /** What changed, in plain sentences (lib/engines/history/diff.ts), at most 10. */
  summary: string[];
  links: { report: string; changes: string; feed: string };
  /** The log rules that started to hold ("watch.logs" only): crawler counts of the account's own logs. */
  logs?: { kind: string; crawler: string; text: string }[];
}

/** Builds the event of a regression (or of a test delivery, `type` "watch.ping"). */
export function regressionEvent(input: {
  type?: WatchEvent["type"];
  id: string;
  now: number;
  service: string;
  watch: { id: string; target: string; schedule: string; domain: string; pageUrl: string | null };
  from: EventScan | null;
  to: EventScan | null;
  regressions: Regression[];
  diff: ScanDiff | null;
  links: WatchEvent["links"];
}): WatchEvent {
  return {
    type: input.type ?? "watch.regression",
    id: input.id,
    createdAt: new Date(input.now).toISOString(),
    service: input.service,
    watch: { id: input.watch.id, target: input.watch.target, schedule: input.watch.schedule },
    domain: input.watch.domain,
    url: input.watch.pageUrl,
    from: input.from,
    to: input.to,
    regressions: input.regressions.map((r) => ({ ...r, subjects: r.subjects.slice(0, 30) })),
    summary: (input.diff?.summary ?? []).slice(0, 10).map((s) => s.slice(0, 500)),
    links: input.links,
  };
}

/** The escapes Slack's mrkdwn needs (&, <, >). */
function slackText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Markdown characters Discord would read as formatting, escaped. */
function discordText(s: string): string {
  return s.replace(/([\\*_~`|>#\[\]()@])/g, "\\$1");
}

function headline(event: WatchEvent): string {
  if (event.type === "watch.ping") return `Test delivery for the watch of ${event.watch.target}`;
  if (event.type === "watch.logs") {
    return `AI crawlers at ${event.watch.target}: what your server logs show changed`;
  }
  const score = event.to?.score !== null && event.to?.score !== undefined
    ? ` (score ${
      event.from?.score !== null && event.from?.score !== undefined
        ? `${Math.round(event.from.score)} → `
        : ""
    }${Math.round(event.to.score)})`
    : "";
  return `${event.watch.target} regressed${score}`;
}

/** The body of a delivery in `format`, as sent (and signed). */
export function renderBody(event: WatchEvent, format: WebhookFormat): string {
  let body: string;
  switch (format) {
    case "json":
      body = JSON.stringify(event);
      break;
    case "slack": {
      const lines = [
        `*${slackText(headline(event))}*`,
        ...event.regressions.map((r) => `• ${slackText(r.text)}`),
        ...(event.logs ?? []).map((l) => `• ${slackText(l.text)}`),
        `<${event.links.report}|Report> · <${event.links.changes}|What changed>`,
      ];
      body = JSON.stringify({ text: lines.join("\n") });
      break;
    }
    case "discord": {
      const lines = [
        `**${discordText(headline(event))}**`,
        ...event.regressions.map((r) => `- ${discordText(r.text)}`),
        ...(event.logs ?? []).map((l) => `- ${discordText(l.text)}`),
        `Report: <${event.links.report}>`,
      ];
      let content = lines.join("\n");
      if (content.length > 2000) content = `${content.slice(0, 1990)}…`;
      body = JSON.stringify({ content, allowed_mentions: { parse: [] } });
      break;
    }
  }
  // Bounded whatever the inputs: drop the sentences first, then the subjects.
  if (new TextEncoder().encode(body).length > MAX_BODY_BYTES && event.summary.length) {
    return renderBody({ ...event, summary: [] }, format);
  }
  if (new TextEncoder().encode(body).length > MAX_BODY_BYTES) {
    return renderBody({
      ...event,
      regressions: event.regressions.map((r) => ({
        ...r,
        subjects: [],
        text: r.text.slice(0, 300),
      })),
    }, format);
  }
  return body;
}
