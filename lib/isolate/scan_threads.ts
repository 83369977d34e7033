/**
 * Scans in threads of their own: everything a scanned site controls (the fetch and its decoding,
 * the parse, the analysis, the record) runs in a `node:worker_threads` thread with its own V8 heap
 * limit and a wall-clock limit. A page that exhausts either ends its thread, not the server: the
 * scan fails with {@link TOO_COMPLEX}, and the server's own thread never stalls on a parse.
 *
 * Why this mechanism (measured with deno 2.9.6, see docs/reliability.md):
 * - a Web Worker (`new Worker(url, { type: "module" })`) that runs out of heap takes the whole
 *   process down ("Fatal JavaScript out of memory"): Deno has no per-worker heap limit;
 * - a `node:worker_threads` Worker honours `resourceLimits.maxOldGenerationSizeMb`: at the limit
 *   the thread ends with ERR_WORKER_OUT_OF_MEMORY and the process serves on;
 * - a subprocess would need `--allow-run` (not in the start task) and does not exist on Deploy.
 *
 * Where no thread can be started (Deno Deploy), scans run in-process and only the parsers' caps
 * (lib/html/linear_parser.ts, the fetcher's body cap) bound them: see {@link isolationFromEnv}.
 *
 * Threads are reused for up to {@link ScanThreadOptions.scansPerThread} scans (starting one costs
 * about 0.5 s of CPU to load the scanners), and replaced after any failure.
 */
import { Worker as NodeWorker } from "node:worker_threads";
import type { Config } from "../config.ts";
import type { Target } from "../scan/domain.ts";
import type { RunOutcome } from "../service.ts";
import {
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  type ScanRequestMessage,
  THREAD_READY,
} from "./protocol.ts";

export { SCAN_THREAD_NICE, type ScanReplyMessage, type ScanRequestMessage, THREAD_READY };

/** The reason a scan stopped by its thread's bounds gives (the start of its failure text). */
export const TOO_COMPLEX = "the page is too large or too complex to analyse";

/** Runs a scan somewhere (a thread, or this isolate). */
export interface ScanRunner {
  readonly kind: "thread" | "inline";
  /**
   * Runs `service`'s scan of `target`. Rejects with {@link ScanIsolationError} when the scan's
   * thread crashed, ran out of memory or out of time.
   */
  run(
    service: string,
    target: Target,
    config: Config,
    now: () => Date,
    onProgress?: (step: string) => void,
  ): Promise<RunOutcome>;
  /**
   * Settles once the threads started ahead have loaded their code (or failed to), so a server
   * can start serving only then: loading opens files, which a flood of connections could starve.
   */
  warmed(): Promise<void>;
  /** Ends every thread. */
  close(): Promise<void>;
}

/** A scan ended by its bounds (or its thread's crash), not by anything it returned. */
export class ScanIsolationError extends Error {
  constructor(
    message: string,
    readonly kind: "memory" | "time" | "crash",
  ) {
    super(message);
    this.name = "ScanIsolationError";
  }
}

/** Options of {@link startScanThreads}. */
export interface ScanThreadOptions {
  /** V8 old-generation limit of each scan thread, in MB. */
  heapMb: number;
  /** Wall-clock limit of one scan, in ms (past the scan's own time-out: this one kills). */
  timeoutMs: number;
  /** A thread is replaced after this many scans (bounds what any leak can accumulate). */
  scansPerThread?: number;
  /** Threads kept idle for reuse. */
  maxIdle?: number;
  /**
   * Threads started at once, before any scan: starting a thread blocks the caller's thread for
   * ~0.1-0.3 s (V8 creates the isolate synchronously), so it is best done before serving.
   */
  warm?: number;
  /** The thread's module (tests only; default ./scan_thread.ts, which runs the real scanners). */
  threadUrl?: URL;
}

interface Thread {
  worker: NodeWorker;
  scans: number;
  /** The scan in progress: settles it when the thread dies. */
  pending: {
    id: number;
    settle: (r: ScanReplyMessage | ScanIsolationError) => void;
    onProgress?: (step: string) => void;
  } | null;
  dead: boolean;
  /** Resolves once the thread has loaded the scanners (its load time is not the scan's). */
  ready: Promise<void>;
}

const THREAD_URL = new URL("./scan_thread.ts", import.meta.url);

/** A pool of scan threads. */
export function startScanThreads(options: ScanThreadOptions): ScanRunner {
  const scansPerThread = options.scansPerThread ?? 100;
  const maxIdle = options.maxIdle ?? 4;
  const idle: Thread[] = [];
  const all = new Set<Thread>();
  let nextId = 1;

  const spawn = (): Thread => {
    const worker = new NodeWorker(options.threadUrl ?? THREAD_URL, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    let loaded: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    ready.catch(() => {});
    const thread: Thread = { worker, scans: 0, pending: null, dead: false, ready };
    all.add(thread);
    const die = (error: ScanIsolationError) => {
      failed(error);
      if (thread.dead) return;
      thread.dead = true;
      all.delete(thread);
      const i = idle.indexOf(thread);
      if (i >= 0) idle.splice(i, 1);
      thread.pending?.settle(error);
      thread.pending = null;
    };
    worker.on("message", (m: ScanReplyMessage | typeof THREAD_READY) => {
      if (m === THREAD_READY) return loaded();
      if (thread.pending && m.id === thread.pending.id && "progress" in m) {
        thread.pending.onProgress?.(m.progress);
      } else if (thread.pending && m.id === thread.pending.id) {
        const p = thread.pending;
        thread.pending = null;
        p.settle(m);
      }
    });
    worker.on("error", (e: unknown) => {
      const text = String((e as Error)?.message ?? e);
      const memory = /memory limit|out of memory|ERR_WORKER_OUT_OF_MEMORY/i.test(text) ||
        (e as { code?: string })?.code === "ERR_WORKER_OUT_OF_MEMORY";
      die(
        memory
          ? new ScanIsolationError(
            `${TOO_COMPLEX} (it needed more than ${options.heapMb} MB of memory)`,
            "memory",
          )
          : new ScanIsolationError(`the scan's thread crashed: ${text}`, "crash"),
      );
    });
    worker.on("exit", (code: number) => {
      die(new ScanIsolationError(`the scan's thread exited (code ${code})`, "crash"));
    });
    return thread;
  };

  const retire = (thread: Thread) => {
    if (thread.dead) return;
    thread.dead = true;
    all.delete(thread);
    thread.worker.terminate().catch(() => {});
  };

  for (let i = 0; i < Math.min(options.warm ?? 0, maxIdle); i++) idle.push(spawn());

  return {
    kind: "thread",
    async warmed() {
      await Promise.allSettled(idle.map((t) => t.ready));
    },
    async run(service, target, config, now, onProgress) {
      const thread = idle.pop() ?? spawn();
      const id = nextId++;
      thread.scans++;
      await thread.ready;
      // A rendering scan has its render budget on top (lib/render/, docs/rendering.md).
      const timeoutMs = options.timeoutMs + (target.render ? config.render.budgetMs : 0);
      return await new Promise<RunOutcome>((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(
            new ScanIsolationError(
              `${TOO_COMPLEX} (it took longer than ${Math.round(timeoutMs / 1000)} s)`,
              "time",
            ),
          );
        }, timeoutMs);
        const settle = (r: ScanReplyMessage | ScanIsolationError) => {
          if (thread.pending?.id === id) thread.pending = null;
          clearTimeout(timer);
          if (r instanceof ScanIsolationError) {
            retire(thread);
            reject(r);
            return;
          }
          // A thread that rendered holds playwright-core (tens of MB): it is not kept for reuse.
          if (thread.scans >= scansPerThread || idle.length >= maxIdle || target.render) {
            retire(thread);
          } else if (!thread.dead) idle.push(thread);
          if ("progress" in r) return;
          if (r.ok) resolve(r.outcome);
          else reject(new Error(r.error));
        };
        thread.pending = { id, settle, onProgress };
        const message: ScanRequestMessage = {
          id,
          service,
          target,
          config,
          nowMs: now().getTime(),
        };
        thread.worker.postMessage(message);
      });
    },
    async close() {
      const threads = [...all];
      idle.length = 0;
      for (const t of threads) t.dead = true;
      all.clear();
      await Promise.allSettled(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** Runs scans in this isolate (no thread available): only the parsers' own caps bound them. */
export function inlineRunner(
  services: Record<
    string,
    {
      run(
        t: Target,
        d: { config: Config; now: () => Date; onProgress?: (step: string) => void },
      ): Promise<RunOutcome>;
    }
  >,
): ScanRunner {
  return {
    kind: "inline",
    warmed: () => Promise.resolve(),
    run: (service, target, config, now, onProgress) => {
      const s = services[service];
      if (!s) return Promise.reject(new Error(`no ${service} service`));
      return s.run(target, { config, now, onProgress });
    },
    close: () => Promise.resolve(),
  };
}

// The settings are read with the rest of the configuration (lib/config.ts).
export { isolationFromEnv, type IsolationSettings } from "../config.ts";
