/**
 * The shapes the watch store keeps (lib/features/watch/store.ts): a watch and a webhook delivery.
 * Types only; the key layout is at the top of the store.
 */

import type { Sealed } from "../../kit/auth/secret_box.ts";

export type { Sealed };
/** How often a watch is rescanned (lib/features/watch/schedule.ts SCHEDULES). */
export type Schedule = "daily" | "weekly";
/** The body shape of a watch's webhook (lib/features/watch/payload.ts WEBHOOK_FORMATS). */
export type WebhookFormat = "json" | "slack" | "discord";

/** How often a watch asks the assistants (answer presence) about its site. */
export type AnswerSchedule = "daily" | "weekly" | "off";

/** How the last scheduled run of a watch went. */
export type WatchRunOutcome =
  /** A new scan was queued (or one in flight joined). */
  | "scanned"
  /** A record younger than the cache age was there: no new scan. */
  | "fresh"
  /** The account's or the domain's pool was full: tried again later. */
  | "limited"
  /** Something else went wrong (said in `detail`). */
  | "error";

/** A watch: a target rescanned on a schedule, compared with the scan it saw last. */
export interface Watch {
  id: string;
  accountId: string;
  /** What the user asked to watch, normalised: the domain (visibility) or the page URL (schema). */
  target: string;
  /** The record key (lib/kit/net/target.ts). */
  domain: string;
  /** The page watched (schema service), else null. */
  pageUrl: string | null;
  /** Where a scan starts, and the host it connects to (from normaliseTarget). */
  url: string;
  host: string;
  schedule: Schedule;
  createdAt: number;
  /** Where it was created. */
  via: "dashboard" | "api" | "mcp";
  /** Where alerts go, sealed (lib/kit/auth/secret_box.ts); null: the feed and the dashboard only. */
  webhook: {
    url: Sealed;
    secret: Sealed;
    format: WebhookFormat;
    /** The URL's origin, for pages ("https://hooks.slack.com/…"). */
    display: string;
  } | null;
  /** A score drop of fewer points is not an alert by itself. */
  minScoreDrop: number;
  /** When it runs next (ms); its due entry is keyed by it. */
  nextRunAt: number;
  /** The scan this watch waits for (queued by its last run). */
  pending: { scanId: string; since: number } | null;
  /** The last successful scan it saw: what the next one is compared with. */
  baseline: { scanId: string; scannedAt: string } | null;
  /** The status of the last scan it saw (a failure alerts once, not on every failed scan). */
  lastStatus: "ok" | "failed" | null;
  /** The last scan it evaluated (never twice). */
  lastSeenScanId: string | null;
  lastRun: { at: number; outcome: WatchRunOutcome; detail: string } | null;
  /** When its owner last asked it to run now (the owner's "run now" is rate limited). */
  lastRunNowAt?: number | null;
  /**
   * How often answer presence is asked for its site on this schedule ("off": only when asked);
   * weekly by default. Older watches have none: off.
   */
  answers?: AnswerSchedule;
  /** When the next scheduled answer run is due (ms), and how the last one went. */
  nextAnswersAt?: number | null;
  lastAnswers?: { at: number; outcome: "started" | "refused" | "error"; detail: string } | null;
  lastAlert: { at: number; scanId: string; texts: string[] } | null;
  /**
   * Where e-mail alerts go (lib/features/watch/email.ts): the address and the unsubscribe token
   * sealed, the confirmation and unsubscribe tokens' hashes (their index finds the watch), and
   * whether the owner of the address confirmed it (only then are alerts sent).
   */
  email?: {
    address: Sealed;
    display: string;
    state: "pending" | "confirmed";
    confirmHash: string;
    unsubscribe: Sealed;
    unsubscribeHash: string;
  } | null;
  /**
   * A scan whose only regression was timing (lib/engines/history/regressions.ts): held, not alerted, with
   * the baseline kept; the next scan alerts if it is still slower. Absent in older watches.
   */
  timingHeld?: string | null;
  /**
   * Its server-log rules (lib/features/watch/log_alerts.ts): the day last checked and the rules
   * then holding (an alert goes out when one starts to hold); absent before the first check.
   */
  logAlerts?: { checkedDay: string; holding: string[] };
}

/** One attempt to deliver an alert. */
export interface DeliveryAttempt {
  at: number;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** The first bytes of the answer, or why there was none. */
  answer: string;
  ms: number;
}

/** An alert on its way to a webhook, and what the receiver answered. */
export interface Delivery {
  /** Also the webhook-id header: the same on every retry. */
  id: string;
  watchId: string;
  accountId: string;
  target: string;
  event: "watch.regression" | "watch.ping" | "watch.logs" | "watch.email_confirm";
  createdAt: number;
  format: WebhookFormat;
  /** Where it goes: the watch's webhook (the default), or its e-mail address. */
  channel?: "webhook" | "email";
  /** The exact body sent on each attempt (public facts only, at most 16 KB). */
  body: string;
  state: "pending" | "delivered" | "failed" | "cancelled";
  attempts: DeliveryAttempt[];
  /** When the next attempt is due (pending only). */
  nextAttemptAt: number | null;
}
