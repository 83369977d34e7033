/**
 * The background scan worker: listens on the KV queue, runs each job with bounded concurrency and
 * always ends with a stored record ("ok" or "failed") and the domain's in-flight mark cleared.
 *
 * Delivery is at least once: a job redelivered after a crash runs again unless a record at least
 * as new as the job already exists, and an older record never replaces a newer one.
 */
import type { Config } from "./config.ts";
import { normaliseTarget } from "./domain.ts";
import type { ServiceDef } from "./service.ts";
import type { ScanJob, Store } from "./store.ts";
import type { JobQueue } from "./job_queue.ts";

/** What the worker needs. */
export interface WorkerDeps {
  kv: Deno.Kv;
  /** One store per service name (a shared queue may carry either service's jobs). */
  stores: Record<string, Store>;
  services: Record<string, ServiceDef>;
  config: Config;
  /** At most this many scans run at once. */
  concurrency?: number;
  now?: () => Date;
  log?: (entry: Record<string, unknown>) => void;
  /** Called after a record is stored (e.g. to drop a cached report). */
  onStored?: (service: string, domain: string) => void;
  /** Where jobs come from (lib/job_queue.ts); Deno KV's own queue (listenQueue) when absent. */
  queue?: JobQueue;
}

/** A running worker. */
export interface Worker {
  /** Scans running right now. */
  running(): number;
  /** Resolves when every scan started so far has been stored. */
  idle(): Promise<void>;
  /** Stops taking jobs (polled queue; Deno KV's queue stops when its KV handle closes). */
  stop(): Promise<void>;
}

/** Tells a queued scan job from anything else on the queue. */
export function isScanJob(value: unknown): value is ScanJob {
  const v = value as ScanJob;
  return !!v && typeof v === "object" && v.kind === "scan" && typeof v.jobId === "string" &&
    typeof v.domain === "string" && typeof v.url === "string" && typeof v.service === "string";
}

/** Starts listening on the queue. Call once per KV handle. */
export function startWorker(deps: WorkerDeps): Worker {
  const limit = Math.max(1, deps.concurrency ?? 4);
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((e) => console.log(JSON.stringify(e)));
  let active = 0;
  const waiting: (() => void)[] = [];
  const inProgress = new Set<Promise<void>>();
  const acquire = () =>
    active < limit ? (active++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  const handler = async (message: unknown) => {
    if (!isScanJob(message)) {
      log({ event: "queue.ignored", reason: "not a scan job" });
      return;
    }
    const task = (async () => {
      await acquire();
      try {
        await runJob(message, deps, now, log);
      } finally {
        release();
      }
    })();
    inProgress.add(task);
    try {
      await task;
    } finally {
      inProgress.delete(task);
    }
  };
  const listening = deps.queue
    ? deps.queue.listen(handler, { capacity: () => limit - active - waiting.length })
    : (deps.kv.listenQueue(handler), null);

  return {
    running: () => active,
    idle: async () => {
      while (inProgress.size) await Promise.allSettled([...inProgress]);
    },
    stop: async () => {
      await listening?.stop();
    },
  };
}

async function runJob(
  job: ScanJob,
  deps: WorkerDeps,
  now: () => Date,
  log: (entry: Record<string, unknown>) => void,
): Promise<void> {
  const service = deps.services[job.service];
  const store = deps.stores[job.service];
  if (!service || !store) {
    // A job of a service this process does not serve: leave it to a process that does, unless
    // none will (then its in-flight mark expires on its own).
    log({
      event: "scan.skipped",
      service: job.service,
      domain: job.domain,
      reason: "unknown service",
    });
    throw new Error(`no ${job.service} service in this process`);
  }
  const existing = await store.getScan(job.domain);
  if (existing && Date.parse(existing.record.scannedAt) >= job.enqueuedAt) {
    // Redelivered after it was already stored: nothing to do but release the domain.
    await store.releaseInflight(job);
    log({ event: "scan.duplicate", service: job.service, domain: job.domain, jobId: job.jobId });
    return;
  }
  const started = performance.now();
  let outcome;
  try {
    const target = {
      ...normaliseTarget(job.url),
      domain: job.domain,
      ...(job.pageUrl ? { pageUrl: job.pageUrl } : {}),
    };
    outcome = await service.run(target, { config: deps.config, now });
  } catch (error) {
    // The scanners do not throw for anything a site does; this is a bug, and still ends in a record.
    outcome = {
      record: {
        domain: job.domain,
        status: "failed" as const,
        scannedAt: now().toISOString(),
        result: null,
        ...(service.name === "visibility" ? { offSite: null } : {}),
        ...(service.name === "schema" ? { url: job.pageUrl ?? job.url } : {}),
      },
      failure: `internal error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const durationMs = Math.round(performance.now() - started);
  const result = await store.finishScan(job, {
    record: outcome.record,
    failure: outcome.failure,
    credential: job.credential,
    durationMs,
    jobId: job.jobId,
  });
  deps.onStored?.(job.service, job.domain);
  log({
    event: "scan.finished",
    service: job.service,
    domain: job.domain,
    status: outcome.record.status,
    failure: outcome.failure,
    durationMs,
    stored: result,
    jobId: job.jobId,
  });
}
