/**
 * The messages between the server, the spawner thread and a scan thread (lib/kit/isolate/
 * scan_threads.ts, thread_spawner.ts, spawner_thread.ts, scan_thread.ts).
 */
import { parentPort, resourceLimits } from "node:worker_threads";
import { getHeapStatistics } from "node:v8";
import type { Config } from "../config.ts";
import type { Target } from "../net/target.ts";
import type { RunOutcome, ScanStep } from "../../service.ts";

/**
 * The nice value of scan threads and worker processes (Linux: per thread); the server's own thread
 * keeps 0. 5, not more: the scheduler then weighs the server's thread 1024 against a worker's 335,
 * so the server wins the CPU from its workers, while a worker still gets its share beside the
 * machine's other programs. At 15 (weight 36) a worker beside four busy programs had about 2% of a
 * core and an ordinary one-page scan ran past a 6 s limit (docs/reliability.md, "Priority").
 */
export const SCAN_THREAD_NICE = 5;

/** What a thread is sent. */
export interface ScanRequestMessage {
  id: number;
  service: string;
  target: Target;
  config: Config;
  /** The caller's clock at the request (the thread's clock runs from it). */
  nowMs: number;
}

/** What a thread says once it has loaded, before any scan. */
export const THREAD_READY = "scan-thread-ready";

/** How often a busy thread says it is alive (lib/kit/isolate/scan_threads.ts reads the silences). */
export const BEAT_MS = 250;

/** What a thread answers. */
export type ScanReplyMessage =
  | { id: number; ok: true; outcome: RunOutcome }
  /** A step the scan started (not the end: a reply with `ok` follows). */
  | { id: number; progress: ScanStep }
  | { id: number; ok: false; error: string };

/**
 * Work other than a scan that a thread runs: whatever touches bytes a stranger sends or a large
 * stored record (code validation, lib/features/validate/validate_job.ts; the summary of a stored record over
 * its budget, lib/kit/limits/record_budget.ts). Each kind is a module the server names by URL
 * ({@link ThreadJobModules}, lib/app/server.ts), loaded by each thread before it is ready, like the
 * scanners: this folder knows no job's code.
 *
 * Jobs carry text, never bytes: Deno 2.9.6's worker_threads take about a second to pass 1 MB as a
 * Uint8Array, and about 40 ms as a string.
 */
export interface ThreadJob {
  /** Which job module runs it. */
  kind: string;
}

/**
 * A job module: `runJob` takes a job of its kind and returns its answer (structured-cloneable;
 * text for anything large). It throws only for a bug: a client's bad input is an answer.
 */
export interface ThreadJobModule {
  runJob(job: ThreadJob): unknown | Promise<unknown>;
}

/** The job modules a worker loads, by kind: the URL of each module. */
export type ThreadJobModules = Record<string, string>;

/**
 * A job whose input is a stream of bytes (an uploaded server log, lib/features/logs/read_job.ts):
 * `runStream` reads `input` as it arrives and tells how far it is with `progress` (a small value:
 * counts), then returns its answer. The server's thread moves the bytes into the worker without
 * reading them, one piece each time the worker asks ({@link StreamPullMessage}), so neither side
 * holds more than a few pieces of it ({@link STREAM_PIECES_AHEAD} of at most
 * {@link STREAM_PIECE_BYTES}).
 */
export interface StreamJobModule {
  runStream(
    job: ThreadJob,
    input: ReadableStream<Uint8Array>,
    progress: (progress: unknown) => void,
  ): unknown | Promise<unknown>;
}

/** The largest piece of a stream job's input sent at once (larger chunks are cut). */
export const STREAM_PIECE_BYTES = 256 * 1024;

/** Pieces a worker asks for ahead of what its job has read (the pipe's backpressure). */
export const STREAM_PIECES_AHEAD = 4;

/** A stream job for a worker; its input follows, a piece each time the worker asks. */
export interface StreamRequestMessage {
  id: number;
  job: ThreadJob;
  stream: true;
}

/**
 * The next piece of a stream job's input (`chunk`: bytes; `parts`: the same read back from a
 * worker process's pipe, as views of the reads it spans; `chunk64`: the same as base64, to a
 * thread, whose channel passes strings quickly and bytes slowly), or its end (`error`: the input
 * broke off, which the job's stream raises).
 */
export type StreamInputMessage =
  | { id: number; chunk: Uint8Array }
  | { id: number; parts: Uint8Array[] }
  | { id: number; chunk64: string }
  | { id: number; end: true; error?: string };

/**
 * A worker asks for the next piece of its stream job's input. A worker thread posts it as it is;
 * a worker process writes it as a raw frame without bytes (lib/kit/isolate/frames.ts `pullFrame`),
 * which the server reads back as `{ id, parts: [] }`. One is sent for each piece: decoded as
 * serialised messages, they made the server's side grow by 27 MB over a 2 GB upload (garbage its
 * collector had yet to reclaim), by 11-14 MB as raw frames (tests/bench/logs_bench.ts "peak RSS",
 * docs/logs.md "Benchmarks").
 */
export interface StreamPullMessage {
  id: number;
  more: true;
}

/** How far a stream job is, as its module reported it (a scan's steps come the same way). */
export interface JobProgressMessage {
  id: number;
  progress: unknown;
}

/**
 * A kind of job the workers run, as a feature registers it (lib/app/server.ts JOB_KINDS): the module
 * that runs it (exporting `runJob`, {@link ThreadJobModule}), what it is in words, and which
 * services' servers load it (default: all).
 */
export interface JobKind {
  kind: string;
  module: URL;
  what: string;
  when?: (service: { validatesCode?: boolean; readsServerLogs?: boolean }) => boolean;
  /**
   * The V8 old generation of the worker processes that run this kind, in MB, when it is not the
   * pool's: such a kind runs in workers of its own, which load its module alone and take one of
   * the pool's slots each (never more than the pool's heap: the memory plan stays true). A
   * server-log read sets a small one, so a long log leaves its worker's memory flat.
   */
  heapMb?: (config: Config) => number;
}

/** Runs a job in a worker (lib/kit/isolate/runner.ts ScanRunner.runJob), as features are handed it. */
export type JobRunner = (job: ThreadJob, timeoutMs: number) => Promise<unknown>;

/** A job for a thread (sent on the same channel as a scan; told apart by `job`). */
export interface JobRequestMessage {
  id: number;
  job: ThreadJob;
}

/** What a thread answers to a job. */
export type JobReplyMessage =
  | { id: number; ok: true; answer: unknown }
  | { id: number; ok: false; error: string };

/**
 * A busy thread's heartbeat: the share of its old-generation limit in use, in percent, or 100
 * once V8 has raised its heap limit (which Deno does when a thread reaches it, to end the code
 * running there). A thread stopped at its heap limit in the middle of a scan goes on beating so
 * (Deno 2.9.6 ends the scan's code but neither the thread nor reports it; the heap stays full).
 */
export interface ThreadBeat {
  beat: number;
}

/** The heap limit this thread started with. */
let startLimit = 0;

/** A thread's heartbeat now (see {@link ThreadBeat}). */
export function heartbeat(): ThreadBeat {
  const h = getHeapStatistics();
  startLimit ||= h.heap_size_limit;
  if (h.heap_size_limit > startLimit) return { beat: 100 };
  const old = (resourceLimits.maxOldGenerationSizeMb ?? 0) * 1048576 || h.heap_size_limit;
  return { beat: Math.min(100, Math.round((100 * h.used_heap_size) / old)) };
}

/** The first message a scan thread gets: its end of the channel to the server. */
export interface ThreadHello {
  port: MessagePort;
  /**
   * Its end of a channel whose other end the server's thread holds only to learn when this thread
   * has really ended: that end's `close` event comes when the thread's runtime is gone, which a
   * thread stuck in code that never returns does not reach (lib/kit/isolate/scan_threads.ts).
   */
  life?: MessagePort;
}

/**
 * The first message a worker process gets (lib/kit/isolate/worker_process.ts): the scanner module of
 * each service and the module of each job kind, by URL, all loaded before it answers
 * {@link THREAD_READY}.
 */
export interface WorkerHello {
  scanners: Record<string, string>;
  jobs: ThreadJobModules;
}

/** What the server asks the spawner thread. */
export type SpawnerRequest =
  | {
    op: "spawn";
    id: number;
    url: string;
    heapMb: number;
    youngMb: number;
    /** What the thread reads as `workerData` (the scanner and job modules it loads). */
    workerData?: unknown;
    /** Handed on to the thread in its hello ({@link ThreadHello.life}); transferred. */
    life?: MessagePort;
  }
  | { op: "end"; id: number };

/** What the spawner thread answers. */
export type SpawnerReply =
  | { op: "spawned"; id: number; port: MessagePort }
  /** The thread ended (`memory`: at its heap limit, as far as its error says). */
  | { op: "exit"; id: number; code: number; error?: string; memory: boolean };

/** What the spawner thread says once it has loaded. */
export const SPAWNER_READY = "spawner-ready";

/**
 * In a scan thread: its channel to the server, with the server's messages as they come. The
 * channel arrives as the thread's first message (from the spawner thread).
 */
export function serverChannel(): Promise<ServerChannel> {
  if (!parentPort) throw new Error("a scan thread runs only as a worker thread");
  startLimit = getHeapStatistics().heap_size_limit;
  const parent = parentPort;
  return new Promise((resolve) => {
    parent.once("message", ({ port, life }: ThreadHello) => {
      // One word on it puts the port in use: its other end then hears when this runtime ends.
      life?.postMessage("alive");
      resolve({
        post: (m) => port.postMessage(m),
        onMessage: (f) => {
          port.onmessage = (e: MessageEvent) => f(e.data);
        },
      });
    });
  });
}

/** A scan thread's channel to the server. */
export interface ServerChannel {
  post(
    m:
      | ScanReplyMessage
      | JobReplyMessage
      | JobProgressMessage
      | StreamPullMessage
      | ThreadBeat
      | typeof THREAD_READY,
  ): void;
  onMessage(
    f: (
      m: ScanRequestMessage | JobRequestMessage | StreamRequestMessage | StreamInputMessage,
    ) => void,
  ): void;
}
