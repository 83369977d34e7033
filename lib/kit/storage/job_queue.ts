/**
 * How scan jobs travel from the admission to the worker, on one of two Deno KV mechanisms:
 *
 * - {@link KvNativeQueue} (the default): `enqueue` in the admission's atomic commit and
 *   `listenQueue` in the worker. Deno KV's own queue, at-least-once, redelivered after a crash.
 * - {@link KvPolledQueue}: a job entry written in the admission's atomic commit, and workers that
 *   poll for entries and lease them with a versionstamp-checked commit. For stores without queues:
 *   KV Connect (a self-hosted denokv or a Deploy KV database reached by URL) answers "Enqueue
 *   operations are not supported in KV Connect", and Deno Deploy preview deployments drop
 *   enqueued messages. JOB_QUEUE=poll selects it anywhere.
 *
 * Either way delivery is at least once: the worker (lib/engines/scan/worker.ts) tolerates redelivery.
 *
 * KV layout of the polled queue (one table for every service: a job names its service):
 *
 *   ["job_queue", enqueuedAt, jobId]   -> JobEntry   a job, its lease and its delivery count
 *                                                    (deleted when done or given up)
 */

/** The prefix of every polled job entry. */
export const JOB_QUEUE_PREFIX: Deno.KvKey = ["job_queue"];

/** The key of a polled job entry (oldest first in a listing). */
export function jobKey(job: { jobId: string; enqueuedAt: number }): Deno.KvKey {
  return [...JOB_QUEUE_PREFIX, job.enqueuedAt, job.jobId];
}

/** A job transport over KV. */
export interface JobQueue {
  readonly kind: "queue" | "poll";
  /** Adds a job to an atomic operation (committed together with the job's in-flight mark). */
  add(op: Deno.AtomicOperation, job: { jobId: string; enqueuedAt: number }): void;
  /**
   * Delivers jobs to `handler` until stopped; a handler that throws gets its job again later.
   * `capacity` says how many more jobs this process would start now (polled queue only).
   */
  listen(handler: (message: unknown) => Promise<void>, options?: ListenOptions): {
    stop(): Promise<void>;
  };
  /** Jobs waiting or running, at most `limit` counted (null when the engine cannot tell). */
  backlog(limit?: number): Promise<number | null>;
}

/** Options of {@link JobQueue.listen}. */
export interface ListenOptions {
  /** How many more jobs this process would start now (polled queue only). */
  capacity?: () => number;
  /**
   * Whom a job is for (polled queue only): jobs ready together are taken round-robin across
   * these keys, so one caller's backlog does not fill every free slot first.
   */
  fairKey?: (job: unknown) => string;
}

/**
 * Orders entries round-robin across their keys: the first of each key (in order of each key's
 * first entry), then the second of each, and so on; each key's own order is kept.
 */
export function roundRobin<T>(items: T[], key: (item: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const g of groups.values()) if (round < g.length) out.push(g[round]);
  }
  return out;
}

/** Deno KV's own queue. */
export class KvNativeQueue implements JobQueue {
  readonly kind = "queue" as const;
  constructor(private readonly kv: Deno.Kv) {}

  add(op: Deno.AtomicOperation, job: unknown): void {
    op.enqueue(job);
  }

  listen(handler: (message: unknown) => Promise<void>) {
    const done = this.kv.listenQueue(handler);
    return { stop: () => done.then(() => {}, () => {}) };
  }

  backlog(): Promise<number | null> {
    return Promise.resolve(null);
  }
}

/** A queued job entry of the polled queue. */
interface JobEntry {
  job: unknown;
  /** Not before this time (ms): 0 when new, the lease's end once a worker took it. */
  availableAt: number;
  attempts: number;
}

/** Options of {@link KvPolledQueue}. */
export interface PolledQueueOptions {
  /** How long a worker owns a job it took (then another may take it): past any scan's time. */
  leaseMs: number;
  /** How often an idle worker looks for jobs. */
  pollMs?: number;
  /** A job that failed this many times is dropped (its in-flight mark expires on its own). */
  maxAttempts?: number;
  now?: () => number;
  log?: (entry: Record<string, unknown>) => void;
}

/** Jobs as KV entries, leased by polling workers with versionstamp checks. */
export class KvPolledQueue implements JobQueue {
  readonly kind = "poll" as const;
  readonly #prefix: Deno.KvKey = JOB_QUEUE_PREFIX;

  constructor(private readonly kv: Deno.Kv, private readonly options: PolledQueueOptions) {}

  add(op: Deno.AtomicOperation, job: { jobId: string; enqueuedAt: number }): void {
    op.set(
      jobKey(job),
      {
        job,
        availableAt: 0,
        attempts: 0,
      } satisfies JobEntry,
    );
  }

  listen(
    handler: (message: unknown) => Promise<void>,
    options: ListenOptions = {},
  ) {
    const now = this.options.now ?? Date.now;
    const pollMs = this.options.pollMs ?? 500;
    const maxAttempts = this.options.maxAttempts ?? 5;
    const log = this.options.log ?? ((e) => console.log(JSON.stringify(e)));
    let stopped = false;
    let wake: (() => void) | null = null;
    const running = new Set<Promise<void>>();
    const loop = (async () => {
      while (!stopped) {
        let room = options.capacity?.() ?? 8;
        if (room > 0) {
          try {
            const ready: Deno.KvEntry<JobEntry>[] = [];
            for await (
              const e of this.kv.list<JobEntry>({ prefix: this.#prefix }, { limit: 100 })
            ) {
              if (stopped) break;
              if (e.value.availableAt > now()) continue;
              if (e.value.attempts >= maxAttempts) {
                await this.kv.atomic().check(e).delete(e.key).commit();
                log({ event: "queue.dropped", attempts: e.value.attempts });
                continue;
              }
              ready.push(e);
            }
            const fairKey = options.fairKey;
            const order = fairKey ? roundRobin(ready, (e) => fairKey(e.value.job)) : ready;
            for (const e of order) {
              if (stopped || room <= 0) break;
              const leased: JobEntry = {
                ...e.value,
                availableAt: now() + this.options.leaseMs,
                attempts: e.value.attempts + 1,
              };
              const claim = await this.kv.atomic().check(e).set(e.key, leased).commit();
              if (!claim.ok) continue; // another worker took it
              room--;
              const task = handler(e.value.job).then(
                () =>
                  this.kv.atomic().check({ key: e.key, versionstamp: claim.versionstamp })
                    .delete(e.key).commit().then(() => {}),
                () => {/* leased: taken again once the lease ends */},
              ).finally(() => {
                running.delete(task);
                wake?.();
              });
              running.add(task);
            }
          } catch (error) {
            log({ event: "queue.poll_failed", error: String(error) });
          }
        }
        await new Promise<void>((r) => {
          const t = setTimeout(() => {
            wake = null;
            r();
          }, pollMs);
          wake = () => {
            clearTimeout(t);
            wake = null;
            r();
          };
        });
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        wake?.();
        await loop;
        await Promise.allSettled([...running]);
      },
    };
  }

  async backlog(limit = 1000): Promise<number | null> {
    let n = 0;
    for await (const _ of this.kv.list({ prefix: this.#prefix }, { limit })) n++;
    return n;
  }
}
