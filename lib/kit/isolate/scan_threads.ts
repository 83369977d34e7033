/**
 * Scans in threads of their own: everything a scanned site controls (the fetch and its decoding,
 * the parse, the analysis, the record) runs in a `node:worker_threads` thread with its own V8 heap
 * limits and a wall-clock limit. A page that exhausts either ends its thread, not the server: the
 * scan fails with {@link TOO_COMPLEX}, and the server's own thread never stalls on a parse.
 *
 * Why this mechanism (measured with deno 2.9.6, see docs/reliability.md):
 * - a Web Worker (`new Worker(url, { type: "module" })`) that runs out of heap takes the whole
 *   process down ("Fatal JavaScript out of memory"): Deno has no per-worker heap limit;
 * - a `node:worker_threads` Worker honours `resourceLimits` (old and young generation) as long
 *   as the process has no `--max-old-space-size` / `--max-semi-space-size` V8 flag, which would
 *   override every thread's own limits (so the start task sets neither);
 * - a subprocess would need `--allow-run` (not in the start task) and does not exist on Deploy.
 *
 * How the pool runs them:
 * - **At most `maxThreads` threads** (the memory plan's count, lib/kit/config_memory.ts); a scan that
 *   finds every thread busy waits for one, in order of arrival.
 * - **Threads are created by a thread of their own** (lib/kit/isolate/thread_spawner.ts): creating
 *   one blocks the creating thread 0.1-0.3 s, so it is never the server's thread.
 * - **`warm` threads stay loaded** while idle; any other thread ends after `idleMs` without work.
 *   A thread is replaced after `scansPerThread` scans (bounds what a leak can accumulate) and
 *   after any failure.
 * - **A thread that reaches its heap limit is ended at once**: in synchronous code of a message
 *   handler (where scans run) Deno 2.9.6 ends that code but neither the thread nor reports it (the
 *   scan never answers, the heap stays full, timers still run). A busy thread says every BEAT_MS
 *   how full its heap is; one at {@link FULL_HEAP_PERCENT} or more for `fullMs` is ended and its
 *   scan fails "needed more than N MB". A reported out-of-memory error ends it the same way.
 * - **A thread at its time limit that has been silent is counted lost**: Deno 2.9.6 cannot stop a
 *   thread running synchronous code (a loop that never returns to its event loop): `terminate()`
 *   returns and the thread's exit is reported, but the OS thread keeps running, with its core and
 *   its heap, until that code returns, possibly never (measured here with a `for (;;) {}`; the
 *   Deno bug is https://github.com/denoland/deno/pull/35657, open, checked 2026-11-27). A busy
 *   thread beats every BEAT_MS from its event loop, so one whose last word is older than
 *   {@link SILENT_MS} when its time runs out is in such code. Its scan fails as any over its time;
 *   the pool counts the thread as still holding its slot (the memory plan stays true) and says so
 *   through `onLost`. Each thread has a life line, a channel whose end here closes only when the
 *   thread's runtime is really gone: a lost thread whose code does return then ends, and gives
 *   its slot back. Once every slot is lost the pool refuses work at once, saying the server must
 *   be restarted (IsolationStats `lost`, /healthz `threads`). A thread that waits (on the
 *   network, a timer) keeps beating, ends properly and is not counted.
 *
 * Jobs other than scans (code validation, summaries of oversized stored records: ThreadJob in
 * lib/kit/isolate/protocol.ts) run on the same threads, in the same order, with the same heap limit
 * and heartbeats and a time limit of their own ({@link ScanRunner.runJob}). A stream job (a server
 * log's upload) gets its input a piece at a time as the thread asks, each piece as base64 text:
 * Deno 2.9.6's worker_threads channels pass 64 MB of text in about 60 ms and the same bytes as
 * Uint8Arrays in about 5 s (measured here); a job kind's own heap (`ownHeap` of the worker
 * processes) does not apply to threads.
 *
 * Where no thread can be started (Deno Deploy), scans run in-process and only the parsers' caps
 * (lib/engines/html/linear_parser.ts, the fetcher's body cap) bound them: see {@link isolationFromEnv}.
 */
import {
  BEAT_MS,
  type JobProgressMessage,
  type JobReplyMessage,
  type JobRequestMessage,
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  type ScanRequestMessage,
  type StreamPullMessage,
  type StreamRequestMessage,
  THREAD_READY,
  type ThreadBeat,
  type ThreadJobModules,
} from "./protocol.ts";
import { streamFeed } from "./stream_feed.ts";
import { type ThreadExit, ThreadSpawner } from "./thread_spawner.ts";
import { MessageChannel } from "node:worker_threads";
import {
  type IsolationStats,
  ScanIsolationError,
  type ScanRunner,
  timeError,
  TOO_COMPLEX,
} from "./runner.ts";

export { SCAN_THREAD_NICE, type ScanReplyMessage, type ScanRequestMessage, THREAD_READY };
export { ScanIsolationError, type ScanRunner, TOO_COMPLEX };

/** Options of {@link startScanThreads}. */
export interface ScanThreadOptions {
  /** V8 old-generation limit of each scan thread, in MB. */
  heapMb: number;
  /** V8 young-generation limit of each scan thread, in MB (default: heapMb / 16, 4 to 16). */
  youngMb?: number;
  /** Wall-clock limit of one scan, in ms (past the scan's own time-out: this one kills). */
  timeoutMs: number;
  /** Threads at most (default 4). */
  maxThreads?: number;
  /** A thread is replaced after this many scans (bounds what any leak can accumulate). */
  scansPerThread?: number;
  /** Threads started at once, before any scan, and kept loaded while idle (default 0). */
  warm?: number;
  /** A thread beyond the warm ones ends after this long without work (default 60 s). */
  idleMs?: number;
  /** A busy thread whose heap stays this long at FULL_HEAP_PERCENT is ended (default 1000 ms). */
  fullMs?: number;
  /** The thread's module (tests only; default ./scan_thread.ts, which runs the real scanners). */
  threadUrl?: URL;
  /**
   * The scanner module of each service a thread may run, by name (lib/service.ts ServiceDef
   * scanner): the server's registry, handed to each thread, which loads them before it is ready.
   */
  scanners?: Record<string, string>;
  /** The module of each job kind a thread may run (lib/kit/isolate/protocol.ts ThreadJobModules). */
  jobs?: ThreadJobModules;
  /**
   * Told when a thread is counted lost (silent at its time limit: see the module's comment), and
   * when a lost thread ends after all.
   */
  onLost?: (lost: LostThread) => void;
}

/**
 * A thread counted lost, or (`work` null) a lost thread that has ended after all and given its
 * slot back, as `onLost` is told.
 */
export interface LostThread {
  /** What it was running; null when it has ended after all. */
  work: "scan" | "job" | null;
  /** How long it had been silent when its time ran out, in ms (null when it has ended). */
  silentMs: number | null;
  /** Threads lost now, and the pool's slots. */
  lost: number;
  maxThreads: number;
}

/**
 * A busy thread beats every BEAT_MS (250 ms) from its event loop: silent for 20 beats, it is in
 * synchronous code far longer than any capped parse takes (a 5 MiB page parses in about a second),
 * and timers delayed by a loaded machine are not taken for it.
 */
export const SILENT_MS = 20 * BEAT_MS;

/** What a thread sends back to a scan or job. */
type Reply = ScanReplyMessage | JobReplyMessage | JobProgressMessage;

interface Pending {
  id: number;
  settle: (r: Reply | ScanIsolationError) => void;
  onProgress?: (progress: unknown) => void;
  /** A stream job's thread asks for the next piece of its input. */
  onMore?: () => void;
}

interface Thread {
  /** The spawner's id, once started. */
  id: number;
  port: MessagePort | null;
  scans: number;
  /** The scan or job in progress: settles it when the thread dies. */
  pending: Pending | null;
  dead: boolean;
  /** Resolves once the thread has loaded the scanners (its load time is not the scan's). */
  ready: Promise<void>;
  /** Since when its heartbeats have said its heap is full (ms, performance.now()), or null. */
  fullSince: number | null;
  /** When it last sent anything (a beat, progress, an answer), in ms (performance.now()). */
  heardAt: number;
  /** Counted lost: ended but, as far as anything here can tell, still running. */
  lost: boolean;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

const THREAD_URL = new URL("./scan_thread.ts", import.meta.url);

/** A heap this full (of its limit, young generation included) has stopped its scan. */
export const FULL_HEAP_PERCENT = 90;

/** A pool of scan threads. */
export function startScanThreads(
  options: ScanThreadOptions,
): ScanRunner & { stats(): IsolationStats } {
  const scansPerThread = options.scansPerThread ?? 100;
  const maxThreads = Math.max(1, options.maxThreads ?? 4);
  const warm = Math.min(maxThreads, options.warm ?? 0);
  const idleMs = options.idleMs ?? 60_000;
  const fullMs = options.fullMs ?? 1000;
  const youngMb = options.youngMb ?? Math.min(16, Math.max(4, Math.round(options.heapMb / 16)));
  const url = options.threadUrl ?? THREAD_URL;
  const spawner = new ThreadSpawner();
  const all = new Set<Thread>();
  const idle: Thread[] = [];
  /** Scans waiting for a thread, in order of arrival. */
  const waiting: ((t: Thread | null) => void)[] = [];
  let nextId = 1;
  let closed = false;
  /** Threads lost in code that does not return: each keeps its slot (see the module comment). */
  let lost = 0;
  /** Threads ended at their heap or time limit since the pool started. */
  let killed = 0;
  /** Slots a new thread may take. */
  const slots = () => Math.max(0, maxThreads - lost);

  const memoryError = () =>
    new ScanIsolationError(
      `${TOO_COMPLEX} (it needed more than ${options.heapMb} MB of memory)`,
      "memory",
    );

  const die = (thread: Thread, error: ScanIsolationError) => {
    if (thread.dead) return;
    thread.dead = true;
    clearTimeout(thread.idleTimer);
    all.delete(thread);
    const i = idle.indexOf(thread);
    if (i >= 0) idle.splice(i, 1);
    const p = thread.pending;
    thread.pending = null;
    p?.settle(error);
    if (thread.port) spawner.end(thread.id);
    refill();
  };

  const onMessage = (
    thread: Thread,
    m: Reply | StreamPullMessage | ThreadBeat | typeof THREAD_READY,
  ) => {
    thread.heardAt = performance.now();
    if (m === THREAD_READY) return;
    if ("beat" in m) {
      if (!thread.pending || m.beat < FULL_HEAP_PERCENT) thread.fullSince = null;
      else if (thread.fullSince === null) thread.fullSince = performance.now();
      else if (performance.now() - thread.fullSince >= fullMs) die(thread, memoryError());
      return;
    }
    const p = thread.pending;
    if (!p || m.id !== p.id) return;
    if ("more" in m) p.onMore?.();
    else if ("progress" in m) p.onProgress?.(m.progress);
    else {
      thread.pending = null;
      p.settle(m);
    }
  };

  const spawn = (): Thread => {
    let loaded: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    ready.catch(() => {});
    const thread: Thread = {
      id: 0,
      port: null,
      scans: 0,
      pending: null,
      dead: false,
      ready,
      fullSince: null,
      heardAt: performance.now(),
      lost: false,
      idleTimer: undefined,
    };
    // The thread's life line: its other end closes only once the thread's runtime is gone (a
    // thread's reported exit comes at once, even while its code still runs). A lost thread that
    // does return from its code ends then, and gives its slot back.
    const life = new MessageChannel();
    life.port1.on("message", () => {});
    life.port1.on("close", () => {
      if (!thread.lost) return;
      thread.lost = false;
      lost--;
      options.onLost?.({ work: null, silentMs: null, lost, maxThreads });
      refill();
    });
    life.port1.unref();
    all.add(thread);
    const onExit = (exit: ThreadExit) => {
      const error = exit.memory ? memoryError() : new ScanIsolationError(
        exit.error
          ? `the scan's thread crashed: ${exit.error}`
          : `the scan's thread exited (code ${exit.code})`,
        "crash",
      );
      failed(error);
      die(thread, error);
    };
    spawner.spawn(
      url,
      {
        heapMb: options.heapMb,
        youngMb,
        workerData: { scanners: options.scanners ?? {}, jobs: options.jobs ?? {} },
        life: life.port2 as unknown as MessagePort,
      },
      onExit,
    ).then((started) => {
      thread.id = started.id;
      thread.port = started.port;
      if (thread.dead || closed) {
        spawner.end(started.id);
        return;
      }
      started.port.onmessage = (e: MessageEvent) => {
        if (e.data === THREAD_READY) loaded();
        onMessage(thread, e.data);
      };
    }, (error) => {
      const e = new ScanIsolationError(String((error as Error)?.message ?? error), "crash");
      failed(e);
      die(thread, e);
    });
    return thread;
  };

  /** Ends a thread that did nothing wrong (idle too long, or used enough). */
  const retire = (thread: Thread) => {
    if (thread.dead) return;
    thread.dead = true;
    clearTimeout(thread.idleTimer);
    all.delete(thread);
    const i = idle.indexOf(thread);
    if (i >= 0) idle.splice(i, 1);
    if (thread.port) spawner.end(thread.id);
    else thread.ready.then(() => spawner.end(thread.id), () => {});
  };

  /** Hands a free thread to the next waiting scan, or keeps it idle. */
  const release = (thread: Thread) => {
    if (thread.dead || closed) return refill();
    if (thread.scans >= scansPerThread) {
      retire(thread);
      return refill();
    }
    const next = waiting.shift();
    if (next) return next(thread);
    idle.push(thread);
    if (idle.length > warm) {
      thread.idleTimer = setTimeout(() => {
        const i = idle.indexOf(thread);
        if (i >= 0 && idle.length > warm) {
          idle.splice(i, 1);
          retire(thread);
        }
      }, idleMs);
    }
  };

  /** After a thread ended: starts one for a waiting scan, or keeps the warm ones loaded. */
  const refill = () => {
    if (closed) return;
    if (slots() === 0) {
      for (const next of waiting.splice(0)) next(null);
      return;
    }
    while (waiting.length && all.size < slots()) waiting.shift()!(spawn());
    while (waiting.length === 0 && all.size < Math.min(warm, slots())) idle.push(spawn());
  };

  const acquire = async (): Promise<Thread> => {
    const thread = idle.pop();
    if (thread) {
      clearTimeout(thread.idleTimer);
      return thread;
    }
    if (all.size < slots()) return spawn();
    const next = slots() === 0 ? null : await new Promise<Thread | null>((r) => waiting.push(r));
    if (!next) {
      throw new ScanIsolationError(
        `no scan thread is left: all ${maxThreads} are lost in code that does not return ` +
          "(the server must be restarted)",
        "crash",
      );
    }
    return next;
  };

  /**
   * Sends one scan or job to a thread (waiting for one when all are busy) and resolves with the
   * thread's final answer; rejects with a ScanIsolationError when the thread is ended by its
   * bounds or crashes, and with the thread's error when the work itself failed.
   */
  const send = async (
    build: (id: number) => ScanRequestMessage | JobRequestMessage | StreamRequestMessage,
    timeoutMs: number,
    onProgress?: (progress: unknown) => void,
    /** Retire the thread afterwards instead of keeping it (a rendering scan's: see run). */
    retireAfter = false,
    /** A stream job's input. */
    input?: ReadableStream<Uint8Array>,
  ): Promise<Extract<Reply, { ok: true }>> => {
    if (closed) throw new ScanIsolationError("the scan threads are closed", "crash");
    let thread = await acquire();
    const id = nextId++;
    thread.scans++;
    // A thread that could not start fails this work like a crashed one (the worker retries scans).
    await thread.ready;
    if (thread.dead) {
      // Ended while loading (closed, or its spawner ended): one more try on a new thread.
      thread = await acquire();
      await thread.ready;
    }
    const message = build(id);
    const feed = input
      ? streamFeed(input, (m) =>
        thread.port?.postMessage(
          "chunk" in m ? { id: m.id, chunk64: m.chunk.toBase64() } : m,
        ))
      : null;
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = timeError(timeoutMs);
        const silentMs = Math.round(performance.now() - thread.heardAt);
        if (silentMs > SILENT_MS) {
          // Ending it will not stop it (see the module's comment): its slot stays taken until its
          // life line says it has ended.
          thread.lost = true;
          lost++;
          options.onLost?.({
            work: "target" in message ? "scan" : "job",
            silentMs,
            lost,
            maxThreads,
          });
        }
        thread.pending?.settle(error);
        die(thread, error);
      }, timeoutMs);
      let settled = false;
      const settle = (r: Reply | ScanIsolationError) => {
        if (settled) return;
        settled = true;
        if (thread.pending?.id === id) thread.pending = null;
        clearTimeout(timer);
        feed?.stop();
        if (r instanceof ScanIsolationError) {
          if (r.kind !== "crash") killed++;
          die(thread, r);
          reject(r);
          return;
        }
        if (retireAfter) {
          retire(thread);
          refill();
        } else release(thread);
        if ("progress" in r) return;
        if (r.ok) resolve(r);
        else reject(new Error(r.error));
      };
      thread.pending = {
        id,
        settle,
        onProgress,
        onMore: feed ? () => feed.more(id) : undefined,
      };
      thread.fullSince = null;
      thread.heardAt = performance.now();
      thread.port!.postMessage(message);
    });
  };

  for (let i = 0; i < warm; i++) idle.push(spawn());

  return {
    kind: "thread",
    stats: () => ({
      kind: "thread",
      workers: all.size,
      busy: [...all].filter((t) => t.pending).length,
      waiting: waiting.length,
      killed,
      lost,
      maxWorkers: maxThreads,
    }),
    async warmed() {
      await Promise.allSettled(idle.map((t) => t.ready));
    },
    async run(service, target, config, now, onProgress) {
      // A rendering scan has its render budget on top (lib/engines/render/, docs/rendering.md), and the
      // thread that rendered holds playwright-core (tens of MB): it is not kept for reuse.
      const render = target.render === true;
      const reply = await send(
        (id): ScanRequestMessage => ({ id, service, target, config, nowMs: now().getTime() }),
        options.timeoutMs + (render ? config.render.budgetMs : 0),
        onProgress as (progress: unknown) => void,
        render,
      );
      if (!("outcome" in reply)) {
        throw new Error("a scan thread answered a scan with a job's answer");
      }
      return reply.outcome;
    },
    async runJob(job, timeoutMs) {
      const reply = await send((id): JobRequestMessage => ({ id, job }), timeoutMs);
      if (!("answer" in reply)) {
        throw new Error("a scan thread answered a job with a scan's outcome");
      }
      return reply.answer;
    },
    async runStream(job, input, timeoutMs, onProgress) {
      const reply = await send(
        (id): StreamRequestMessage => ({ id, job, stream: true }),
        timeoutMs,
        onProgress,
        false,
        input,
      );
      if (!("answer" in reply)) {
        throw new Error("a scan thread answered a job with a scan's outcome");
      }
      return reply.answer;
    },
    async close() {
      closed = true;
      for (const t of all) {
        t.dead = true;
        clearTimeout(t.idleTimer);
        const p = t.pending;
        t.pending = null;
        p?.settle(new ScanIsolationError("the scan threads were closed", "crash"));
      }
      all.clear();
      idle.length = 0;
      await spawner.close();
    },
  };
}

// The settings are read with the rest of the configuration (lib/kit/config.ts).
export { isolationFromEnv, type IsolationSettings } from "../config.ts";
