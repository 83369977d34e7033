/**
 * One tick of the watch scheduler (Deno.cron calls it every minute, from main.ts; tests call
 * it with their own clock): the watches due run, the watches whose scan has finished are compared
 * with the scan they saw last, and the deliveries due are sent (lib/features/watch/delivery.ts).
 *
 * A run scans on the existing queue (Store.admitScan: the same admission, in-flight mark and job
 * as POST /api/scan), counted in the account's pool and the domain's, never in an address's pool.
 * A target whose record is younger than the cache age and new to the watch is not scanned again:
 * that record is compared instead. Each step is bounded per tick; what is left waits for the next.
 */
import { changesJsonPath, scanPagePath } from "../../kit/report_urls.ts";
import { inflightTtlMs, isFresh, withRenderChoice } from "../../engines/scan/scan_service.ts";
import type { BaseRecord } from "../../service.ts";
import { STATUS_TTL_MS, targetOf } from "../../kit/storage/history.ts";
import type { Delivery, Watch } from "./store_types.ts";
import type { WatchDeps } from "./context.ts";
import { feedPath } from "./feed.ts";
import { type EventScan, regressionEvent } from "./payload.ts";
import { findRegressions } from "../../engines/history/regressions.ts";
import { nextSlot } from "./schedule.ts";
import { deliverDue, type DeliveryCounts, newDelivery } from "./delivery.ts";
import { targetOfWatch, watchPools, watchScanJob } from "./run_now.ts";
import { alertMail, emailDelivery, emailLinks } from "./email.ts";
import { checkWatchLogs } from "./log_alert_step.ts";

/** The most of each step one tick does. */
export const TICK_LIMITS = { due: 100, pending: 200, outbox: 50, answers: 20 } as const;

/** A scheduled answer run that was refused (a budget of the day) is tried again after this. */
export const ANSWERS_RETRY_MS = 6 * 3600_000;

/** A run that found the pools full tries again after at least this long. */
export const LIMITED_RETRY_MS = 10 * 60_000;

/** What one tick did. */
export interface TickReport extends DeliveryCounts {
  /** Watches that queued (or joined) a scan. */
  ran: number;
  /** Watches that used a record younger than the cache age. */
  fresh: number;
  /** Watches whose pools were full (tried again later). */
  limited: number;
  /** Finished scans compared with the watch's last one. */
  evaluated: number;
  alerts: number;
  /** Scheduled answer-presence runs started, and those refused (tried again later). */
  answersStarted: number;
  answersRefused: number;
}

/** Runs one tick at `deps.now()`. */
export async function watchTick(deps: WatchDeps): Promise<TickReport> {
  const now = deps.now();
  const report: TickReport = {
    ran: 0,
    fresh: 0,
    limited: 0,
    evaluated: 0,
    alerts: 0,
    answersStarted: 0,
    answersRefused: 0,
    delivered: 0,
    failed: 0,
    retried: 0,
  };
  for (const due of await deps.watches.due(now, TICK_LIMITS.due)) {
    try {
      if (deps.logSeries) report.alerts += await checkWatchLogs(deps, due.accountId, due.id, now);
      await runWatch(deps, due.accountId, due.id, now, report);
    } catch (error) {
      deps.log({ event: "watch.run_failed", watchId: due.id, error: String(error) });
    }
  }
  for (const p of await deps.watches.pending(TICK_LIMITS.pending)) {
    try {
      await evaluateWatch(deps, p.accountId, p.id, now, report);
    } catch (error) {
      deps.log({ event: "watch.evaluate_failed", watchId: p.id, error: String(error) });
    }
  }
  if (deps.startAnswers) await runDueAnswers(deps, now, report);
  await deliverDue(deps, now, TICK_LIMITS.outbox, report);
  return report;
}

/**
 * Starts the answer-presence runs that are due on their watch's schedule (at most
 * TICK_LIMITS.answers a tick), within the account's budget and its fair share of the operator's
 * pool (the answers feature refuses what does not fit: tried again ANSWERS_RETRY_MS later).
 */
async function runDueAnswers(deps: WatchDeps, now: number, report: TickReport): Promise<void> {
  for (const due of await deps.watches.answersDue(now, TICK_LIMITS.answers)) {
    const entry = await deps.watches.get(due.accountId, due.id);
    const w = entry.value;
    if (!w || !w.answers || w.answers === "off" || !w.nextAnswersAt || w.nextAnswersAt > now) {
      continue;
    }
    const next = nextSlot(`${w.id}:answers`, w.answers, now);
    let lastAnswers: NonNullable<Watch["lastAnswers"]>;
    let nextAnswersAt = next;
    try {
      const detail = await deps.startAnswers!(w.accountId, w.domain);
      lastAnswers = { at: now, outcome: "started", detail };
      report.answersStarted++;
    } catch (error) {
      const status = (error as { status?: number }).status;
      lastAnswers = {
        at: now,
        outcome: status && status < 500 ? "refused" : "error",
        detail: String((error as Error).message ?? error).slice(0, 300),
      };
      nextAnswersAt = Math.min(next, now + ANSWERS_RETRY_MS);
      report.answersRefused++;
    }
    await deps.watches.save(entry as Deno.KvEntry<Watch>, { ...w, nextAnswersAt, lastAnswers });
  }
}

async function runWatch(
  deps: WatchDeps,
  accountId: string,
  id: string,
  now: number,
  report: TickReport,
): Promise<void> {
  const entry = await deps.watches.get(accountId, id);
  if (!entry.value || entry.value.nextRunAt > now) return;
  const w = entry.value;
  const slot = nextSlot(w.id, w.schedule, now);
  if (w.pending) {
    // The last run's scan has not been compared yet: no second scan on top of it.
    await deps.watches.save(entry, { ...w, nextRunAt: slot });
    return;
  }
  const stored = await deps.store.getScan(w.domain);
  // A watch scans as the service's form does (the schema service renders where it can), so its
  // comparisons see the same view a user's scan does.
  const target = withRenderChoice(targetOfWatch(w), deps);
  if (
    stored && isFresh(stored, now) && stored.jobId !== w.lastSeenScanId &&
    (deps.service.servesCached?.(stored.record, target) ?? true)
  ) {
    // Someone scanned it within the cache age: compare that record, scan nothing.
    report.fresh++;
    await deps.watches.save(entry, {
      ...w,
      nextRunAt: slot,
      pending: { scanId: stored.jobId, since: now },
      lastRun: { at: now, outcome: "fresh", detail: `used the scan of ${stored.record.scannedAt}` },
    });
    return;
  }
  // Claimed before the admission, so two processes running this tick never both scan.
  const claimed = { ...w, nextRunAt: slot };
  if (!(await deps.watches.save(entry, claimed))) return;
  const job = watchScanJob(deps, w, now, `watch:${w.accountId}`, target.render === true);
  const admission = await deps.store.admitScan(job, watchPools(w), now, inflightTtlMs(deps.config));
  const again = await deps.watches.get(accountId, id);
  if (!again.value) return; // removed meanwhile: the scan runs, nothing waits for it
  if (admission.status === "limited") {
    report.limited++;
    const retry = now + Math.max(LIMITED_RETRY_MS, admission.retryAfterMs);
    await deps.watches.save(again, {
      ...again.value,
      nextRunAt: Math.min(slot, retry),
      lastRun: {
        at: now,
        outcome: "limited",
        detail:
          `the ${admission.pool.pool} pool was full (${admission.pool.limit} new scans per hour)`,
      },
    });
    return;
  }
  const scanId = admission.status === "inflight"
    ? (await deps.store.getInflight(w.domain))?.jobId ?? job.jobId
    : job.jobId;
  report.ran++;
  await deps.watches.save(again, {
    ...again.value,
    pending: { scanId, since: now },
    lastRun: {
      at: now,
      outcome: "scanned",
      detail: admission.status === "inflight" ? "joined the scan in progress" : "queued a scan",
    },
  });
}

async function evaluateWatch(
  deps: WatchDeps,
  accountId: string,
  id: string,
  now: number,
  report: TickReport,
): Promise<void> {
  const entry = await deps.watches.get(accountId, id);
  const w = entry.value;
  if (!w?.pending) return;
  const kept = await deps.store.history.get(w.pending.scanId);
  if (!kept) {
    if (
      !(await deps.store.history.status(w.pending.scanId)) && now - w.pending.since > STATUS_TTL_MS
    ) {
      await deps.watches.save(entry as Deno.KvEntry<Watch>, {
        ...w,
        pending: null,
        lastRun: { at: now, outcome: "error", detail: "the scan never finished" },
      });
    }
    return;
  }
  if (w.pageUrl && targetOf(w.domain, kept.entry) !== w.pageUrl) {
    // A scan of another page of the domain was in flight and joined: run again soon.
    await deps.watches.save(entry as Deno.KvEntry<Watch>, {
      ...w,
      pending: null,
      nextRunAt: Math.min(w.nextRunAt, now + LIMITED_RETRY_MS),
      lastRun: { at: now, outcome: "error", detail: "another page of the site was being scanned" },
    });
    return;
  }
  report.evaluated++;
  const next: Watch = { ...w, pending: null };
  if (w.lastSeenScanId === w.pending.scanId) {
    await deps.watches.save(entry as Deno.KvEntry<Watch>, next);
    return;
  }
  const record = kept.record;
  const scan = { id: w.pending.scanId, scannedAt: kept.entry.scannedAt };
  const base = w.baseline && !(record.status === "failed" && w.lastStatus === "failed")
    ? await deps.store.history.get(w.baseline.scanId)
    : null;
  const found = base
    ? findRegressions(base.record, record, {
      minScoreDrop: w.minScoreDrop,
      timingPersisted: Boolean(w.timingHeld),
    })
    : null;
  next.lastSeenScanId = scan.id;
  next.lastStatus = record.status;
  // A drop timing alone explains waits for a second scan: the baseline stays, so the next scan is
  // compared with the same one and alerts only if it is still slower.
  const hold = Boolean(found && !found.regressions.length && found.held.length);
  next.timingHeld = hold ? scan.id : null;
  if (record.status === "ok" && !hold) {
    next.baseline = { scanId: scan.id, scannedAt: scan.scannedAt };
  }
  let delivery: Delivery | null = null;
  let mail: Delivery | null = null;
  if (found && found.regressions.length && base) {
    report.alerts++;
    next.lastAlert = { at: now, scanId: scan.id, texts: found.regressions.map((r) => r.text) };
    const deliveryId = crypto.randomUUID();
    const event = regressionEvent({
      id: deliveryId,
      now,
      service: deps.service.name,
      watch: w,
      from: eventScan(deps, w.domain, w.baseline!.scanId, base.record),
      to: eventScan(deps, w.domain, scan.id, record),
      regressions: found.regressions,
      diff: found.diff,
      links: {
        report: `${deps.origin}${scanPagePath(w.domain, scan.id)}`,
        changes: `${deps.origin}${changesJsonPath(w.domain, w.baseline!.scanId, scan.id)}`,
        feed: `${deps.origin}${feedPath(w.domain)}`,
      },
    });
    deps.log({
      event: "watch.regression",
      watchId: w.id,
      domain: w.domain,
      kinds: found.regressions.map((r) => r.kind),
    });
    delivery = newDelivery(w, event, now);
    if (w.email?.state === "confirmed") {
      const token = await (await deps.box()).open(w.email.unsubscribe, w.id);
      if (token) {
        const link = emailLinks(deps.origin, { unsubscribe: token }).unsubscribe!;
        mail = emailDelivery(w, "watch.regression", alertMail(event, link), now);
      }
    }
  }
  await deps.watches.save(
    entry as Deno.KvEntry<Watch>,
    next,
    delivery || mail
      ? (op) => {
        if (delivery) deps.watches.addDelivery(op, delivery);
        if (mail) deps.watches.addDelivery(op, mail);
      }
      : undefined,
  );
}

function eventScan(deps: WatchDeps, domain: string, id: string, record: BaseRecord): EventScan {
  const r = record.result as { score?: number; grade?: string } | null;
  return {
    scanId: id,
    scannedAt: record.scannedAt,
    status: record.status,
    score: typeof r?.score === "number" ? r.score : null,
    grade: typeof r?.grade === "string" ? r.grade : null,
    report: `${deps.origin}${scanPagePath(domain, id)}`,
  };
}
