/**
 * The background scan worker: listens on the KV queue, runs each job with bounded concurrency and
 * always ends with a stored record ("ok" or "failed") and the domain's in-flight mark cleared.
 *
 * Delivery is at least once: a job redelivered after a crash runs again unless a record at least
 * as new as the job already exists, and an older record never replaces a newer one.
 *
 * No poison jobs: every start of a job is counted in KV before it runs (Store.countAttempt), so a
 * job that took its process down is recognised when it comes back; one whose scan thread ran out
 * of memory or time (lib/kit/isolate/scan_threads.ts) is tried again at once. Past `maxAttempts` the
 * job is stored as a failed record saying why, and the domain leaves the in-flight state.
 *
 * Fairness: jobs waiting for a free slot are taken round-robin across callers (ScanJob.caller: the
 * API key, else the credential kind and address), so one caller's backlog delays another caller's
 * scan by at most one scan per caller ahead of it, not by the whole backlog.
 */
import type { Config } from "../../kit/config.ts";
import type { ScanStep, ServiceDef, WorkerStepId } from "../../service.ts";
import type { ScanJob, Store } from "../../kit/storage/store.ts";
import type { JobQueue } from "../../kit/storage/job_queue.ts";
import { ScanIsolationError, type ScanRunner, TOO_COMPLEX } from "../../kit/isolate/runner.ts";
import { inflightTtlMs } from "./scan_service.ts";

/** Starts of one job (its first run included) before it is stored as failed. */
export const DEFAULT_MAX_ATTEMPTS = 2;

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
  /** Where jobs come from (lib/kit/storage/job_queue.ts); Deno KV's own queue (listenQueue) when absent. */
  queue?: JobQueue;
  /**
   * Where scans run (lib/kit/isolate/scan_threads.ts): a scan thread with its own heap and time
   * limits. Absent, scans run in this isolate through `services` (tests, Deno Deploy).
   */
  runner?: ScanRunner;
  /** Starts of a job before it is stored as failed (default {@link DEFAULT_MAX_ATTEMPTS}). */
  maxAttempts?: number;
  /** How often the in-flight mark of a job held here (waiting or running) is renewed, in ms. */
  heartbeatMs?: number;
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

/** The loose fields a job queued before its target travelled whole carried instead of it. */
type LooseTarget = {
  domain: string;
  url: string;
  host: string;
  pageUrl?: string;
  render?: boolean;
};

/**
 * The scan job a queue message carries, or null for anything else. A job queued by an earlier
 * version, its target in five loose fields (domain, url, pageUrl, host, render), is read into its
 * target as it was queued (never normalised again), so an upgrade loses no queued scan.
 */
export function scanJobOf(value: unknown): ScanJob | null {
  const v = value as Partial<ScanJob> & Partial<LooseTarget>;
  if (!v || typeof v !== "object" || v.kind !== "scan") return null;
  if (typeof v.jobId !== "string" || typeof v.service !== "string") return null;
  if (v.target && typeof v.target.domain === "string" && typeof v.target.url === "string") {
    return v as ScanJob;
  }
  if (typeof v.domain !== "string" || typeof v.url !== "string" || typeof v.host !== "string") {
    return null;
  }
  const { domain, url, host, pageUrl, render, ...job } = v;
  return {
    ...job,
    target: {
      domain,
      url,
      host,
      ...(pageUrl ? { pageUrl } : {}),
      ...(render ? { render: true } : {}),
    },
  } as ScanJob;
}

/** Starts listening on the queue. Call once per KV handle. */
export function startWorker(deps: WorkerDeps): Worker {
  const limit = Math.max(1, deps.concurrency ?? 4);
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((e) => console.log(JSON.stringify(e)));
  let active = 0;
  const waiting = new FairQueue();
  const inProgress = new Set<Promise<void>>();
  const acquire = (caller: string) =>
    active < limit
      ? (active++, Promise.resolve())
      : new Promise<void>((r) => waiting.push(caller, r));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  // Rendering scans start a browser each: at most config.render.concurrency at once.
  const renderSlots = new Slots(deps.config.render?.concurrency ?? 1);

  const handler = async (queued: unknown) => {
    const message = scanJobOf(queued);
    if (!message) {
      log({ event: "queue.ignored", reason: "not a scan job" });
      return;
    }
    const store = deps.stores[message.service];
    const task = (async () => {
      // The job is held here from now on: its domain stays in flight while it waits and runs.
      const beat = store && deps.heartbeatMs !== 0
        ? setInterval(() => {
          store.renewInflight(message, inflightTtlMs(deps.config), now().getTime()).catch(() => {});
        }, deps.heartbeatMs ?? 30_000)
        : undefined;
      try {
        if (message.target.render) await renderSlots.acquire();
        try {
          await acquire(callerOf(message));
          try {
            await runJob(message, deps, now, log);
          } finally {
            release();
          }
        } finally {
          if (message.target.render) renderSlots.release();
        }
      } finally {
        clearInterval(beat);
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
    ? deps.queue.listen(handler, {
      capacity: () => limit - active - waiting.size,
      fairKey: (queued) => {
        const job = scanJobOf(queued);
        return job ? callerOf(job) : "";
      },
    })
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
      domain: job.target.domain,
      reason: "unknown service",
    });
    throw new Error(`no ${job.service} service in this process`);
  }
  const existing = await store.getScan(job.target.domain);
  if (existing && Date.parse(existing.record.scannedAt) >= job.enqueuedAt) {
    // Redelivered after it was already stored: nothing to do but release the domain.
    await store.releaseInflight(job);
    log({
      event: "scan.duplicate",
      service: job.service,
      domain: job.target.domain,
      jobId: job.jobId,
    });
    return;
  }
  const started = performance.now();
  // The scan's status URL shows the step it is really on (lib/kit/storage/history.ts ScanStatus):
  // written when the step changes, one write at a time, never after the record is stored.
  let stepWrite: Promise<void> = Promise.resolve();
  let lastStep = "";
  const onProgress = (step: ScanStep) => {
    if (step.text === lastStep) return;
    lastStep = step.text;
    stepWrite = stepWrite.then(() => store.setScanStep(job, step, now().getTime())).catch(
      () => {},
    );
  };
  onProgress(workerStep("starting", "starting the scan"));
  const maxAttempts = Math.max(1, deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const failedRecord = (failure: string) => ({
    record: {
      domain: job.target.domain,
      status: "failed" as const,
      scannedAt: now().toISOString(),
      result: null,
      ...service.failedRecordFields?.(job.target),
    },
    failure,
  });
  let outcome;
  for (;;) {
    const attempt = await store.countAttempt(job);
    if (attempt > maxAttempts) {
      // Started that many times and never stored: each start ended its process or thread.
      outcome = failedRecord(
        `${TOO_COMPLEX} (its scan stopped the worker ${maxAttempts} times: out of memory or ` +
          "time)",
      );
      break;
    }
    try {
      const target = job.target;
      outcome = deps.runner
        ? await deps.runner.run(job.service, target, deps.config, now, onProgress)
        : await service.run(target, { config: deps.config, now, onProgress });
      break;
    } catch (error) {
      if (error instanceof ScanIsolationError) {
        log({
          event: "scan.isolation_failed",
          service: job.service,
          domain: job.target.domain,
          jobId: job.jobId,
          attempt,
          cause: error.kind,
          error: error.message,
        });
        if (attempt < maxAttempts) continue;
        outcome = failedRecord(error.message);
        break;
      }
      // The scanners do not throw for anything a site does; this is a bug, and still ends in a record.
      outcome = failedRecord(
        `internal error: ${error instanceof Error ? error.message : String(error)}`,
      );
      break;
    }
  }
  onProgress(workerStep("saving", "saving the report"));
  await stepWrite;
  const durationMs = Math.round(performance.now() - started);
  let result;
  try {
    result = await store.finishScan(job, {
      record: outcome.record,
      failure: outcome.failure,
      credential: job.credential,
      durationMs,
      jobId: job.jobId,
    });
  } catch (error) {
    // The record could not be written (the store refused it): a small failed record says why, so
    // the domain is not left in flight and the next request does not start the same doomed scan.
    const reason = `the report could not be stored: ${
      error instanceof Error ? error.message : String(error)
    }`;
    log({
      event: "scan.store_failed",
      service: job.service,
      domain: job.target.domain,
      error: reason,
    });
    outcome = failedRecord(reason);
    try {
      result = await store.finishScan(job, {
        ...outcome,
        credential: job.credential,
        durationMs,
        jobId: job.jobId,
      });
    } catch (again) {
      await store.releaseInflight(job).catch(() => {});
      throw again;
    }
  }
  deps.onStored?.(job.service, job.target.domain);
  log({
    event: "scan.finished",
    service: job.service,
    domain: job.target.domain,
    status: outcome.record.status,
    failure: outcome.failure,
    durationMs,
    stored: result,
    jobId: job.jobId,
  });
}

/** Who a job is scheduled for: the API key, else the credential kind and the caller's address. */
export function callerOf(job: ScanJob): string {
  return job.caller ?? job.credential;
}

/**
 * Waiters grouped by caller, served round-robin: each caller with waiters gets one turn per round,
 * in the order callers first arrived; a caller's own waiters keep their order.
 */
export class FairQueue {
  #byCaller = new Map<string, (() => void)[]>();
  /** Callers with waiters, in turn order (the next turn is the first). */
  #turns: string[] = [];
  #size = 0;

  /** Waiters in all. */
  get size(): number {
    return this.#size;
  }

  push(caller: string, wake: () => void): void {
    const list = this.#byCaller.get(caller);
    if (list) list.push(wake);
    else {
      this.#byCaller.set(caller, [wake]);
      this.#turns.push(caller);
    }
    this.#size++;
  }

  /** The next waiter: the first of the caller whose turn it is. */
  shift(): (() => void) | undefined {
    const caller = this.#turns.shift();
    if (caller === undefined) return undefined;
    const list = this.#byCaller.get(caller)!;
    const wake = list.shift()!;
    if (list.length) this.#turns.push(caller);
    else this.#byCaller.delete(caller);
    this.#size--;
    return wake;
  }
}

/** A step the worker itself reports around a service's scan. */
function workerStep(id: WorkerStepId, text: string): ScanStep {
  return { id, text };
}

/** A counting semaphore (waiters served in arrival order). */
class Slots {
  #free: number;
  #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.#free = Math.max(1, size);
  }
  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
