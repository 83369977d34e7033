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
import { CAPS, LIMITS, WINDOW_MS } from "../../kit/limits/limits.ts";
import { changesJsonPath, scanPagePath } from "../../kit/report_urls.ts";
import { inflightTtlMs, isFresh } from "../../engines/scan/scan_service.ts";
import type { BaseRecord } from "../../service.ts";
import { STATUS_TTL_MS, targetOf } from "../../kit/storage/history.ts";
import type { ScanJob } from "../../kit/storage/store.ts";
import type { Delivery, Watch } from "./store_types.ts";
import type { WatchDeps } from "./context.ts";
import { feedPath } from "./feed.ts";
import { type EventScan, regressionEvent } from "./payload.ts";
import { findRegressions } from "../../engines/history/regressions.ts";
import { nextSlot } from "./schedule.ts";
import { deliverDue, type DeliveryCounts, newDelivery } from "./delivery.ts";
import { checkWatchLogs } from "./log_alert_step.ts";

/** The most of each step one tick does. */
export const TICK_LIMITS = { due: 100, pending: 200, outbox: 50 } as const;

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
  await deliverDue(deps, now, TICK_LIMITS.outbox, report);
  return report;
}

/** The target of a watch as the scan flow names it. */
function targetOfWatch(w: Watch) {
  return {
    domain: w.domain,
    host: w.host,
    url: w.url,
    ...(w.pageUrl ? { pageUrl: w.pageUrl } : {}),
  };
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
  const target = targetOfWatch(w);
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
  const job: ScanJob = {
    kind: "scan",
    service: deps.service.name,
    jobId: crypto.randomUUID(),
    target: {
      domain: w.domain,
      host: w.host,
      url: w.url,
      ...(w.pageUrl ? { pageUrl: w.pageUrl } : {}),
    },
    credential: "watch",
    enqueuedAt: now,
    caller: `watch:${w.accountId}`,
  };
  const pools = [
    { pool: "account", id: w.accountId, limit: CAPS.accountScans, windowMs: WINDOW_MS },
    { pool: "domain", id: w.domain, limit: LIMITS.domain, windowMs: WINDOW_MS },
  ];
  const admission = await deps.store.admitScan(job, pools, now, inflightTtlMs(deps.config));
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
    ? findRegressions(base.record, record, { minScoreDrop: w.minScoreDrop })
    : null;
  next.lastSeenScanId = scan.id;
  next.lastStatus = record.status;
  if (record.status === "ok") next.baseline = { scanId: scan.id, scannedAt: scan.scannedAt };
  let delivery: Delivery | null = null;
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
  }
  await deps.watches.save(
    entry as Deno.KvEntry<Watch>,
    next,
    delivery ? (op) => deps.watches.addDelivery(op, delivery!) : undefined,
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
