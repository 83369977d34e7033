/**
 * GET /healthz: is this process able to serve? Checks, each time-boxed: KV (a strong read and a
 * write of a record-sized probe), the job backlog (domains in flight, and queued jobs on the
 * polled queue), and the rate limiter (Deno KV, or Redis through Upstash: a PING). 200 when every
 * check passes, 503 otherwise. Never a secret: no URL, token or error text from a dependency, only
 * kinds, timings and counts.
 *
 * A store that cannot write (a full disk, a read-only file) is remembered per KV handle
 * ({@link storeWriteHealth}): the health probe and any request whose KV write failed mark it, and
 * while it is marked new scans are refused with 503 and Retry-After (lib/engines/scan/scan_service.ts) instead
 * of being admitted into a store that cannot keep their records.
 */
import { PRODUCT } from "./config.ts";
import { HttpError } from "./errors.ts";
import type { Store } from "./storage/store.ts";
import type { IsolationStats } from "./isolate/runner.ts";
import { HEALTH_READ_KEY, WRITE_PROBE_KEY } from "./storage/keys_system.ts";

/** The JSON body of /healthz. */
export interface Health {
  ok: boolean;
  service: string;
  version: string;
  /** `ok`: read and write both work; `write`: the probe write (and no recent write failure). */
  kv: { ok: boolean; ms: number; write: { ok: boolean; ms: number } };
  queue: {
    ok: boolean;
    kind: "queue" | "poll";
    /** Domains queued or running (in-flight marks), counted up to 1000. */
    inflight: number | null;
    /** Jobs waiting in the polled queue (absent for Deno KV's own queue, which cannot tell). */
    backlog?: number | null;
    /** Age of the oldest in-flight mark. */
    oldestMs: number | null;
  };
  limiter: { kind: "kv" | "redis"; ok: boolean; ms: number };
  /**
   * The scan workers (absent where scans run in this isolate): `kind` says what a worker is,
   * `max` the slots, `busy` the workers at work, `waiting` the scans and jobs queued for one,
   * `killed` the workers ended at a limit (time or memory) since start, each replaced at once.
   * A worker process is killed for certain, so no slot is ever lost to input; `lost` counts only
   * threads (SCAN_ISOLATION=thread) stuck in code Deno cannot stop, which keep their slots: with
   * every slot lost no scan can run, `ok` is false and the answer 503 until a restart.
   */
  threads?: {
    ok: boolean;
    kind: "process" | "thread";
    max: number;
    busy: number;
    waiting: number;
    killed: number;
    lost: number;
  };
}

const TIMEOUT_MS = 2000;

/** Runs the checks. */
export async function checkHealth(
  store: Store,
  now: () => number = Date.now,
  threads?: IsolationStats,
): Promise<Health> {
  const writes = storeWriteHealth(store.kv);
  const [kv, write, queue, limiter] = await Promise.all([
    timed(() => store.kv.get(HEALTH_READ_KEY, { consistency: "strong" })),
    timed(() => writes.probe(now())),
    timed(async () => {
      const [inflight, backlog] = await Promise.all([
        store.inflightSummary(1000),
        store.queue.backlog(1000),
      ]);
      return { inflight, backlog };
    }),
    timed(() => store.limiter.ping()),
  ]);
  // A probe that timed out counts as a failure too (a store stuck on its disk cannot keep records).
  if (!write.ok) writes.noteFailure(now());
  const writable = writes.writable(now());
  const inflight = queue.value?.inflight;
  const threadsOk = !threads || threads.lost < threads.maxWorkers;
  const health: Health = {
    ok: kv.ok && writable && queue.ok && limiter.ok && threadsOk,
    service: store.service,
    version: PRODUCT.version,
    kv: { ok: kv.ok && writable, ms: kv.ms, write: { ok: writable, ms: write.ms } },
    queue: {
      ok: queue.ok,
      kind: store.queue.kind,
      inflight: inflight?.count ?? null,
      ...(store.queue.kind === "poll" ? { backlog: queue.value?.backlog ?? null } : {}),
      oldestMs: inflight?.oldestSince != null ? Math.max(0, now() - inflight.oldestSince) : null,
    },
    limiter: { kind: store.limiter.kind, ok: limiter.ok, ms: limiter.ms },
    ...(threads
      ? {
        threads: {
          ok: threadsOk,
          kind: threads.kind,
          max: threads.maxWorkers,
          busy: threads.busy,
          waiting: threads.waiting,
          killed: threads.killed,
          lost: threads.lost,
        },
      }
      : {}),
  };
  return health;
}

async function timed<T>(check: () => Promise<T>): Promise<{ ok: boolean; ms: number; value?: T }> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const value = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: elapsed(started), value };
  } catch {
    return { ok: false, ms: elapsed(started) };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** How long a store write failure keeps the store marked unwritable (unless a probe succeeds). */
export const WRITE_FAILURE_HOLD_MS = 30_000;
/** Seconds a refused scan is told to wait. */
export const STORE_RETRY_AFTER_S = 30;
/** The probe is as large as a typical record, so it needs new pages as a record would. */
const PROBE_BYTES = 16 * 1024;

/**
 * Whether a KV store can currently write: set by probes and by failed writes. A failure marks
 * the store for {@link WRITE_FAILURE_HOLD_MS}; a successful probe clears the mark (a probe writes
 * as much as a record, so small writes that still fit cannot hide a full disk).
 */
export class StoreWriteHealth {
  #failedAt: number | null = null;
  constructor(private readonly kv: Deno.Kv) {}

  /** Writes the probe; a storage failure marks the store. @throws what the write threw. */
  async probe(now: number): Promise<void> {
    try {
      await this.kv.set(WRITE_PROBE_KEY, { at: now, pad: new Uint8Array(PROBE_BYTES) });
    } catch (error) {
      this.noteFailure(now);
      throw error;
    }
    this.#failedAt = null;
  }

  /** Marks the store unwritable as of `now`. */
  noteFailure(now: number): void {
    this.#failedAt = now;
  }

  /** False while a write failure is recent. */
  writable(now: number): boolean {
    return this.#failedAt === null || now - this.#failedAt >= WRITE_FAILURE_HOLD_MS ||
      now < this.#failedAt;
  }
}

const healthByKv = new WeakMap<Deno.Kv, StoreWriteHealth>();

/** The write health of one KV handle (one per handle, shared by every Store on it). */
export function storeWriteHealth(kv: Deno.Kv): StoreWriteHealth {
  let h = healthByKv.get(kv);
  if (!h) healthByKv.set(kv, h = new StoreWriteHealth(kv));
  return h;
}

/**
 * True for the errors Deno KV throws when its storage cannot take a write: SQLite's "database or
 * disk is full" and "attempt to write a readonly database", and I/O errors of the file.
 */
export function isStoreWriteError(error: unknown): boolean {
  return error instanceof Error && !(error instanceof HttpError) &&
    /database or disk is full|readonly database|read-only file system|disk I\/O error|no space left on device|database disk image is malformed/i
      .test(error.message);
}

/** 503: the store cannot write, so nothing that must be stored is accepted. */
export class StoreUnavailableError extends HttpError {
  override name = "StoreUnavailableError";
  constructor() {
    super(
      503,
      `The service cannot store results right now; please retry in ${STORE_RETRY_AFTER_S} seconds.`,
    );
  }
  override headers(): Record<string, string> {
    return { "Retry-After": String(STORE_RETRY_AFTER_S) };
  }
}
