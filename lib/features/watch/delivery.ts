/**
 * Sends the webhook deliveries that are due, through the guarded fetcher (lib/kit/net/guarded_fetch.ts:
 * public addresses only, checked on every connection; a POST never follows a redirect), signed
 * (lib/features/watch/signature.ts), with retries on back-off:
 *
 * - a 2xx answer delivers it;
 * - no answer (network error, time-out), 408, 429 or a 5xx is tried again after 1 min, 5 min,
 *   30 min and 2 h (5 attempts in all), then it is shown as failed;
 * - any other answer (a 3xx, a 4xx: the receiver refused it) and an address that is not public
 *   fail at once: retrying would not change them.
 *
 * Each attempt records the receiver's status and the first 300 characters of its answer, for the
 * dashboard. The URL and the secret are opened only to send, and never logged.
 */
import { FetchError } from "../../kit/net/types.ts";
import type { Delivery, DeliveryAttempt } from "./store_types.ts";
import type { WatchDeps } from "./context.ts";
import { openWebhook } from "./sealing.ts";
import { signatureHeaders } from "./signature.ts";
import { renderBody, type WatchEvent } from "./payload.ts";
import type { Watch } from "./store_types.ts";
import { sendEmailDelivery } from "./email.ts";

/** The waits before the 2nd, 3rd, 4th and 5th attempts. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000] as const;
/** How long one attempt may take (its answer included). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a process holds a delivery it is sending before another may take it. */
export const LEASE_MS = 2 * 60_000;
/** How much of an answer is kept. */
const ANSWER_CHARS = 300;
/** Deliveries sent at once. */
const PARALLEL = 8;

/** A new delivery of `event` to the watch's webhook, due at once (null without a webhook). */
export function newDelivery(w: Watch, event: WatchEvent, now: number): Delivery | null {
  if (!w.webhook) return null;
  return {
    id: event.id,
    watchId: w.id,
    accountId: w.accountId,
    target: w.target,
    event: event.type,
    createdAt: now,
    format: w.webhook.format,
    body: renderBody(event, w.webhook.format),
    state: "pending",
    attempts: [],
    nextAttemptAt: now,
  };
}

/** What the attempts of one tick came to. */
export interface DeliveryCounts {
  delivered: number;
  failed: number;
  /** Attempts that failed and will be tried again. */
  retried: number;
}

/** Sends up to `limit` deliveries due at `now`, adding their outcomes to `report`. */
export async function deliverDue(
  deps: WatchDeps,
  now: number,
  limit: number,
  report: DeliveryCounts,
): Promise<void> {
  const due = await deps.watches.outbox(now, limit);
  for (let i = 0; i < due.length; i += PARALLEL) {
    await Promise.all(
      due.slice(i, i + PARALLEL).map(async (entry) => {
        try {
          const state = await deliverOne(deps, entry, now);
          if (state === "delivered") report.delivered++;
          else if (state === "failed") report.failed++;
          else if (state === "pending") report.retried++;
        } catch (error) {
          deps.log({ event: "watch.delivery_error", error: String(error) });
        }
      }),
    );
  }
}

async function deliverOne(
  deps: WatchDeps,
  entry: Deno.KvEntry<{ accountId: string; createdAt: number; deliveryId: string }>,
  now: number,
): Promise<Delivery["state"] | null> {
  const leasedUntil = now + LEASE_MS;
  if (!(await deps.watches.lease(entry, leasedUntil))) return null;
  const d = (await deps.watches.delivery(entry.value)).value;
  if (!d || d.state !== "pending") {
    if (d) await deps.watches.settle({ ...d, nextAttemptAt: null }, leasedUntil);
    return null;
  }
  const held = await deps.watches.get(d.accountId, d.watchId);
  if (d.channel === "email") return await deliverEmail(deps, d, held.value, now, leasedUntil);
  if (!held.value?.webhook) {
    // The watch was removed: its alerts stop with it.
    await deps.watches.settle({ ...d, state: "cancelled", nextAttemptAt: null }, leasedUntil);
    return "cancelled";
  }
  const opened = await openWebhook(deps.watches, await deps.box(), held as Deno.KvEntry<Watch>);
  let attempt: DeliveryAttempt;
  let retry = false;
  if (!opened) {
    attempt = {
      at: now,
      status: null,
      answer: "the webhook's URL and secret could not be decrypted (was WATCH_SECRET_KEY changed?)",
      ms: 0,
    };
  } else {
    ({ attempt, retry } = await send(deps, opened.url, opened.secret, d, now));
  }
  const delivered = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  return await settleAttempt(
    deps,
    d,
    attempt,
    { delivered, retry, now, leasedUntil },
    "watch.delivery",
  );
}

/**
 * Keeps an attempt (a webhook's or an e-mail's): delivered, pending its next try on the retry
 * schedule, or failed once the schedule is spent; logged as `event`.
 */
async function settleAttempt(
  deps: WatchDeps,
  d: Delivery,
  attempt: DeliveryAttempt,
  o: { delivered: boolean; retry: boolean; now: number; leasedUntil: number },
  event: "watch.delivery" | "watch.email",
): Promise<Delivery["state"]> {
  const attempts = [...d.attempts, attempt];
  const more = !o.delivered && o.retry && attempts.length <= RETRY_DELAYS_MS.length;
  const next: Delivery = {
    ...d,
    attempts,
    state: o.delivered ? "delivered" : more ? "pending" : "failed",
    nextAttemptAt: more ? o.now + RETRY_DELAYS_MS[attempts.length - 1] : null,
  };
  await deps.watches.settle(next, o.leasedUntil);
  deps.log({
    event,
    deliveryId: d.id,
    watchId: d.watchId,
    attempt: attempts.length,
    status: attempt.status,
    state: next.state,
  });
  return next.state;
}

/** An e-mail delivery: sent through the operator's SMTP server, retried as a webhook is. */
async function deliverEmail(
  deps: WatchDeps,
  d: Delivery,
  watch: Watch | null,
  now: number,
  leasedUntil: number,
): Promise<Delivery["state"]> {
  if (!watch?.email) {
    // The watch or its address went (unsubscribed): its mails stop with it.
    await deps.watches.settle({ ...d, state: "cancelled", nextAttemptAt: null }, leasedUntil);
    return "cancelled";
  }
  const started = performance.now();
  const sent = await sendEmailDelivery(deps, watch, d);
  const attempt: DeliveryAttempt = {
    at: now,
    status: sent.status,
    answer: sent.answer.slice(0, ANSWER_CHARS),
    ms: Math.round(performance.now() - started),
  };
  return await settleAttempt(
    deps,
    d,
    attempt,
    { delivered: sent.status === 250, retry: sent.retry, now, leasedUntil },
    "watch.email",
  );
}

async function send(
  deps: WatchDeps,
  url: string,
  secret: string,
  d: Delivery,
  now: number,
): Promise<{ attempt: DeliveryAttempt; retry: boolean }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await deps.fetcher.fetch(url, {
      method: "POST",
      body: d.body,
      headers: {
        "content-type": "application/json",
        accept: "*/*",
        ...signatureHeaders(secret, d.id, Math.floor(now / 1000), d.body),
      },
      maxBytes: 4096,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxRedirects: 0,
    });
    const s = res.status;
    return {
      attempt: { at: now, status: s, answer: res.body.slice(0, ANSWER_CHARS), ms: ms() },
      retry: s === 408 || s === 429 || s >= 500,
    };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    return {
      attempt: { at: now, status: null, answer: `${error.kind}: ${error.message}`, ms: ms() },
      // An address that is not public, or a URL that cannot be fetched, will not get better.
      retry: error.kind !== "blocked" && error.kind !== "invalid_url",
    };
  }
}
