/**
 * Where untrusted work runs, as the rest of the server sees it: a {@link ScanRunner} runs a
 * service's scan or a job of a registered kind (lib/kit/isolate/protocol.ts ThreadJob) and answers its
 * outcome, or fails it with {@link ScanIsolationError} when the work went past its bounds.
 *
 * Three runners (chosen by SCAN_ISOLATION, lib/kit/config.ts; docs/reliability.md):
 * - `process` (the default where processes can run): worker processes, killed at the work's time
 *   limit and replaced (lib/kit/isolate/process_pool.ts);
 * - `thread`: last round's scan threads, which cannot stop code that never returns
 *   (lib/kit/isolate/scan_threads.ts; kept for hosts that may not start processes);
 * - `inline` (Deno Deploy, tests, the CLI): the work runs in this isolate, bounded only by the
 *   parsers' own caps and the platform's request limits ({@link inlineRunner}).
 */
import type { Config } from "../config.ts";
import type { Target } from "../net/target.ts";
import type { RunOutcome, ScannerModule, ScanStep } from "../../service.ts";
import type { StreamJobModule, ThreadJob, ThreadJobModule, ThreadJobModules } from "./protocol.ts";

/** The reason a scan stopped by its worker's bounds gives (the start of its failure text). */
export const TOO_COMPLEX = "the page is too large or too complex to analyse";

/** Runs scans and jobs somewhere (worker processes, scan threads, or this isolate). */
export interface ScanRunner {
  readonly kind: "process" | "thread" | "inline";
  /**
   * Runs `service`'s scan of `target`. Rejects with {@link ScanIsolationError} when the scan's
   * worker crashed, ran out of memory or out of time.
   */
  run(
    service: string,
    target: Target,
    config: Config,
    now: () => Date,
    onProgress?: (step: ScanStep) => void,
  ): Promise<RunOutcome>;
  /**
   * Runs a job of a registered kind (lib/kit/isolate/protocol.ts ThreadJob) with the worker's heap
   * limit and `timeoutMs`, waiting for a worker like a scan. Rejects with
   * {@link ScanIsolationError} like a scan ("needed more than N MB", "took longer than N s"); a
   * client's bad input is an answer, not a rejection.
   */
  runJob(job: ThreadJob, timeoutMs: number): Promise<unknown>;
  /**
   * Runs a stream job (lib/kit/isolate/protocol.ts StreamJobModule: a server log's upload) with
   * `input` as its bytes, moved into the worker a piece at a time as it asks (this thread reads
   * the next piece only then, and never looks into one); `onProgress` hears what the job reports.
   * At `timeoutMs` the worker is killed, as for a job: rejects with {@link ScanIsolationError}.
   */
  runStream(
    job: ThreadJob,
    input: ReadableStream<Uint8Array>,
    timeoutMs: number,
    onProgress?: (progress: unknown) => void,
  ): Promise<unknown>;
  /**
   * Settles once the workers started ahead have loaded their code (or failed to), so a server
   * can start serving only then: loading opens files, which a flood of connections could starve.
   */
  warmed(): Promise<void>;
  /** What the pool holds now (pools only). */
  stats?(): IsolationStats;
  /** Ends every worker. */
  close(): Promise<void>;
}

/** What a pool holds now (/healthz `threads`, the start-up line, the benchmarks). */
export interface IsolationStats {
  kind: "process" | "thread";
  /** Workers started or starting (a killed one counts until its process is gone). */
  workers: number;
  /** Workers running a scan or job. */
  busy: number;
  /** Scans and jobs waiting for a worker. */
  waiting: number;
  /** Workers ended at a limit (time or memory) since the pool started; each was replaced. */
  killed: number;
  /**
   * Threads stuck in code Deno cannot stop, each still holding its slot (thread pools only;
   * always 0 for processes, which are killed for certain).
   */
  lost: number;
  /** The pool's slots. */
  maxWorkers: number;
}

/** A scan ended by its bounds (or its worker's crash), not by anything it returned. */
export class ScanIsolationError extends Error {
  constructor(
    message: string,
    readonly kind: "memory" | "time" | "crash",
  ) {
    super(message);
    this.name = "ScanIsolationError";
  }
}

/** The failure text of work ended at its time limit. */
export function timeError(timeoutMs: number): ScanIsolationError {
  return new ScanIsolationError(
    `${TOO_COMPLEX} (it took longer than ${Math.round(timeoutMs / 1000)} s)`,
    "time",
  );
}

/** The failure text of work ended at its heap limit. */
export function memoryError(heapMb: number): ScanIsolationError {
  return new ScanIsolationError(
    `${TOO_COMPLEX} (it needed more than ${heapMb} MB of memory)`,
    "memory",
  );
}

/**
 * Runs scans and jobs in this isolate (no worker available: Deno Deploy, tests, the CLI): only
 * the parsers' own caps bound them. Scans run through the service definitions' own `run`; job
 * modules are loaded by URL, as a worker loads them, so no module of the server's imports one
 * (tests/security/server_thread_test.ts).
 */
export function inlineRunner(
  services: Record<string, { run: ScannerModule["run"] }>,
  jobs: ThreadJobModules = {},
): ScanRunner {
  const loaded = new Map<string, Promise<ThreadJobModule & Partial<StreamJobModule>>>();
  const load = (kind: string) => {
    const url = jobs[kind];
    if (!url) throw new Error(`no ${kind} job`);
    let module = loaded.get(url);
    if (!module) loaded.set(url, module = import(url));
    return module;
  };
  return {
    kind: "inline",
    warmed: () => Promise.resolve(),
    run: (service, target, config, now, onProgress) => {
      const s = services[service];
      if (!s) return Promise.reject(new Error(`no ${service} service`));
      return s.run(target, { config, now, onProgress });
    },
    async runJob(job) {
      return await (await load(job.kind)).runJob(job);
    },
    async runStream(job, input, _timeoutMs, onProgress) {
      const module = await load(job.kind);
      if (!module.runStream) throw new Error(`the ${job.kind} job reads no stream`);
      return await module.runStream(job, input, onProgress ?? (() => {}));
    },
    close: () => Promise.resolve(),
  };
}
