/**
 * "Run now": a watch's scan started at once, by its owner (the API with the account's key, the
 * dashboard's button) or by the operator (the API with PIPELINE_TOKEN, `deno task watch run`).
 * The scan goes on the existing queue like a scheduled run (the same admission, in-flight mark and
 * job), and the watch waits for it, so the comparison and its alert follow as for a scheduled run.
 *
 * Bounds: the owner's run counts in the account's pool (CAPS.accountScans) and the domain's, and
 * one watch runs now at most once per CAPS.watchRunNowMinutes; the operator's counts in the
 * domain's pool only. A scan of the target already in flight is joined, not doubled.
 */
import { CAPS, LIMITS, WINDOW_MS } from "../../kit/limits/limits.ts";
import { NotFoundError, RateLimitedError } from "../../kit/errors.ts";
import { inflightTtlMs, withRenderChoice } from "../../engines/scan/scan_service.ts";
import type { ScanJob } from "../../kit/storage/store.ts";
import type { PoolSpec } from "../../kit/limits/limiter.ts";
import type { WatchDeps } from "./context.ts";
import type { Watch } from "./store_types.ts";

/** Who asks: the watch's owner, or the operator. */
export type RunNowCaller = { kind: "owner"; accountId: string } | { kind: "operator" };

/** What "run now" started. */
export interface RunNowResult {
  watch: Watch;
  scanId: string;
  /** True when a scan of the target was already in flight and the watch joined it. */
  joined: boolean;
}

/** The minimum time between two of an owner's "run now" of one watch. */
export const RUN_NOW_INTERVAL_MS = CAPS.watchRunNowMinutes * 60_000;

/** The scan job of a watch (the same as a scheduled run's). */
export function watchScanJob(
  deps: WatchDeps,
  w: Watch,
  now: number,
  caller: string,
  render = false,
): ScanJob {
  return {
    kind: "scan",
    service: deps.service.name,
    jobId: crypto.randomUUID(),
    target: { ...targetOfWatch(w), ...(render ? { render: true } : {}) },
    credential: "watch",
    enqueuedAt: now,
    caller,
  };
}

/** The target of a watch as the scan flow names it. */
export function targetOfWatch(w: Watch) {
  return {
    domain: w.domain,
    host: w.host,
    url: w.url,
    ...(w.pageUrl ? { pageUrl: w.pageUrl } : {}),
  };
}

/** The pools a watch's scan counts in: the account's (unless the operator asks) and the domain's. */
export function watchPools(w: Watch, operator = false): PoolSpec[] {
  return [
    ...(operator
      ? []
      : [{ pool: "account", id: w.accountId, limit: CAPS.accountScans, windowMs: WINDOW_MS }]),
    { pool: "domain", id: w.domain, limit: LIMITS.domain, windowMs: WINDOW_MS },
  ];
}

/**
 * Starts the watch's scan now. @throws NotFoundError (not a watch of the owner), RateLimitedError
 * (429: asked again too soon, or a pool is full; nothing was queued).
 */
export async function runWatchNow(
  deps: WatchDeps,
  id: string,
  caller: RunNowCaller,
): Promise<RunNowResult> {
  const entry = caller.kind === "owner"
    ? await deps.watches.get(caller.accountId, id)
    : await deps.watches.getById(id);
  const w = entry?.value;
  if (!entry || !w) throw new NotFoundError("No such watch");
  const now = deps.now();
  if (caller.kind === "owner" && w.lastRunNowAt && now - w.lastRunNowAt < RUN_NOW_INTERVAL_MS) {
    const seconds = Math.max(1, Math.ceil((w.lastRunNowAt + RUN_NOW_INTERVAL_MS - now) / 1000));
    throw new RateLimitedError(
      `This watch was run less than ${CAPS.watchRunNowMinutes} minutes ago. Retry in ${seconds} ` +
        "seconds.",
      seconds,
    );
  }
  const job = watchScanJob(
    deps,
    w,
    now,
    caller.kind === "owner" ? `watch:${w.accountId}` : "watch:operator",
    withRenderChoice(targetOfWatch(w), deps).render === true,
  );
  const admission = await deps.store.admitScan(
    job,
    watchPools(w, caller.kind === "operator"),
    now,
    inflightTtlMs(deps.config),
  );
  if (admission.status === "limited") {
    const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    throw new RateLimitedError(
      `The ${admission.pool.pool} pool is full (${admission.pool.limit} new scans per hour): ` +
        `nothing was queued. Retry in ${seconds} seconds.`,
      seconds,
    );
  }
  const joined = admission.status === "inflight";
  const scanId = joined ? (await deps.store.getInflight(w.domain))?.jobId ?? job.jobId : job.jobId;
  const again = await deps.watches.get(w.accountId, w.id);
  const current = again.value;
  if (!current) throw new NotFoundError("No such watch");
  const next: Watch = {
    ...current,
    pending: { scanId, since: now },
    lastRunNowAt: caller.kind === "owner" ? now : current.lastRunNowAt ?? null,
    lastRun: {
      at: now,
      outcome: "scanned",
      detail: `${caller.kind === "owner" ? "run now by its owner" : "run now by the operator"}: ${
        joined ? "joined the scan in progress" : "queued a scan"
      }`,
    },
  };
  await deps.watches.save(again as Deno.KvEntry<Watch>, next);
  deps.log({ event: "watch.run_now", watchId: w.id, domain: w.domain, by: caller.kind, joined });
  return { watch: next, scanId, joined };
}
