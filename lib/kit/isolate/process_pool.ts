/**
 * Untrusted work in worker processes that can be stopped for certain: every scan, and every job
 * of a registered kind (code validation, the /validate result's HTML, answer presence's site facts
 * and vendor answers, summaries of oversized records: lib/app/server.ts JOB_KINDS), runs in a
 * `deno run` process of its own (lib/kit/isolate/worker_process.ts) with its own V8 heap limit. At its
 * time limit the process is killed with SIGKILL, whatever its code is doing (a loop that never
 * returns included), the operating system takes back all of its memory, and its slot is free the
 * moment the process is gone; a new worker is started in its place. Deno 2.9.6 cannot do this for
 * a thread (https://github.com/denoland/deno/pull/35657: `terminate()` returns while the thread
 * spins on), which is why the threads of lib/kit/isolate/scan_threads.ts could only count such a
 * thread lost.
 *
 * How the pool runs them:
 * - **At most `maxWorkers` processes** (the memory plan's count, lib/kit/config_memory.ts); work that
 *   finds every worker busy waits for one, in order of arrival. A worker runs one piece of work at
 *   a time.
 * - **`warm` workers are kept loaded** while idle (their scanners and job modules imported), so
 *   work does not wait for a start; any other worker ends after `idleMs` without work. A killed
 *   worker is replaced at once, so the warm ones stay warm. A worker is retired after
 *   `jobsPerWorker` pieces of work (bounds what a leak can accumulate), and after a rendering scan
 *   (it holds playwright-core).
 * - **At its heap limit V8 ends the process** ("Fatal JavaScript out of memory"): its work fails
 *   "needed more than N MB". Any other exit fails it as a crash.
 * - **Starting a process does not block this thread** (a spawn, then the worker loads on its own
 *   cores), unlike creating a thread, which holds the creating thread 0.1-0.3 s.
 * - A worker whose server is gone ends itself (lib/kit/isolate/orphan_watch.ts).
 * - **A job kind may have workers of its own** (`ownHeap`: a server-log read), started with its
 *   own, smaller heap and loading its module alone. Each holds one of the `maxWorkers` slots like
 *   any worker; work of one sort that finds every slot taken while a worker of the other sort is
 *   idle has that worker retired and takes its slot, and a worker freed while the first work in
 *   line is of the other sort is retired for it (first come, first served across both sorts).
 * - **A stream job** (lib/kit/isolate/protocol.ts StreamJobModule) gets its input a piece at a
 *   time: the worker asks for each (STREAM_PIECES_AHEAD ahead at most), and only then is the
 *   next piece read from the caller's stream and sent (lib/kit/isolate/stream_feed.ts); a piece
 *   is at most STREAM_PIECE_BYTES. This thread moves the bytes and never reads them.
 *
 * Messages are framed V8-serialised values over the worker's stdin and stdout
 * (lib/kit/isolate/frames.ts); a worker is sent the configuration without its secrets
 * (lib/kit/isolate/worker_config.ts) and runs with only the permissions its work needs
 * (lib/kit/isolate/worker_command.ts).
 */
import type { Config } from "../config.ts";
import { bytesFrameHead, encodeFrame, FrameError, FrameReader } from "./frames.ts";
import {
  type JobProgressMessage,
  type JobReplyMessage,
  type JobRequestMessage,
  type ScanReplyMessage,
  type ScanRequestMessage,
  type StreamRequestMessage,
  type ThreadJobModules,
} from "./protocol.ts";
import {
  type IsolationStats,
  memoryError,
  ScanIsolationError,
  type ScanRunner,
  timeError,
} from "./runner.ts";
import { workerCommand } from "./worker_command.ts";
import { workerConfig } from "./worker_config.ts";
import { streamFeed } from "./stream_feed.ts";
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

/** Options of {@link startWorkerProcesses}. */
export interface ProcessPoolOptions {
  /** The Deno executable (lib/kit/isolate/worker_command.ts denoForWorkers). */
  deno: string;
  /** V8 old-generation limit of each worker, in MB. */
  heapMb: number;
  /** V8 young-generation limit of each worker, in MB (default: heapMb / 16, 4 to 16). */
  youngMb?: number;
  /** Wall-clock limit of one scan, in ms (past the scan's own time-out: this one kills). */
  timeoutMs: number;
  /** Workers at most (default 4). */
  maxWorkers?: number;
  /** Workers started at once and kept loaded while idle (default 0). */
  warm?: number;
  /** A worker beyond the warm ones ends after this long without work (default 60 s). */
  idleMs?: number;
  /** A worker is retired after this many scans and jobs (default 100). */
  jobsPerWorker?: number;
  /** A worker that has not loaded its modules after this long is killed (default 60 s). */
  loadTimeoutMs?: number;
  /** The scanner module of each service a worker may run, by name. */
  scanners?: Record<string, string>;
  /** The module of each job kind a worker may run (lib/kit/isolate/protocol.ts ThreadJobModules). */
  jobs?: ThreadJobModules;
  /**
   * Job kinds run by workers of their own with this V8 old generation, in MB (at most `heapMb`:
   * larger is cut to it): each such worker loads that kind's module alone (see the module comment),
   * and may collect its garbage at its own pace (`--expose-gc`: lib/kit/isolate/worker_command.ts).
   */
  ownHeap?: Record<string, number>;
  /** A local Chromium workers may start to render (docs/rendering.md), or null. */
  chromium?: string | null;
  /** The worker's module (tests: a stand-in) and the folders it may read besides the program. */
  module?: URL;
  read?: string[];
  /** Told each time a worker is ended at a limit or crashes while it works (for the log). */
  onKilled?: (killed: KilledWorker) => void;
  /**
   * Told when a worker ends before it has loaded (a missing permission, a module that does not
   * load, another Deno's version): the operator's to fix, so the log says why.
   */
  onStartFailed?: (failed: { pid: number; error: string }) => void;
}

/** A worker ended while it worked, as `onKilled` is told. */
export interface KilledWorker {
  work: "scan" | "job";
  /** "time": killed at its time limit; "memory": ended by V8 at its heap limit; else a crash. */
  cause: "time" | "memory" | "crash";
  pid: number;
  /** Workers killed since the pool started. */
  killed: number;
}

/** What a worker answers. */
type Reply = ScanReplyMessage | JobReplyMessage | JobProgressMessage;

/** The first answer of a worker once it has loaded: the Deno version it runs. */
/** A raw frame as frames.ts reads it back (from a worker: a pullFrame, without bytes). */
interface RawFrame {
  id: number;
  parts: Uint8Array[];
}

interface Ready {
  ready: string;
}

interface Pending {
  id: number;
  work: "scan" | "job";
  settle: (r: Reply | ScanIsolationError) => void;
  onProgress?: (progress: unknown) => void;
  /** A stream job's worker asks for the next piece of its input. */
  onMore?: () => void;
}

interface Proc {
  pid: number;
  /** The job kind it was started for alone (`ownHeap`), or null: a worker for everything else. */
  sort: string | null;
  child: Deno.ChildProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Resolves once the worker has loaded its modules; rejects if it ends first. */
  ready: Promise<void>;
  pending: Pending | null;
  uses: number;
  /** It has loaded its modules. */
  loaded: boolean;
  /** No more work goes to it (killed, retired, or ended). */
  dead: boolean;
  /** Killed by the pool at a limit: its exit is not a crash. */
  killedFor: "time" | null;
  /** The end of what it wrote to stderr (a crash's reason, V8's out-of-memory report). */
  stderr: string;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The largest answer a worker may send: a scan's record is at most 1 MiB, a validation's answer
 * at most twice its 1 MiB input plus 64 KiB, a record's summary 1 MiB (lib/kit/limits/
 * record_budget.ts); past it the worker is killed as broken. Work sent to a worker may be larger
 * (a stored record to summarise), up to frames.ts's MAX_FRAME_BYTES.
 */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** How long an ended worker's stderr is waited for before its crash is told without it. */
const STDERR_GRACE_MS = 500;

/** How much of a worker's stderr is kept (V8's out-of-memory report is about 1 KB). */
const STDERR_TAIL = 16 * 1024;

/** What V8 writes when a process reaches its heap limit. */
const OUT_OF_MEMORY = /out of memory|heap limit/i;

/** A pool of worker processes (see the module comment). */
export function startWorkerProcesses(
  options: ProcessPoolOptions,
): ScanRunner & { stats(): IsolationStats } {
  const maxWorkers = Math.max(1, options.maxWorkers ?? 4);
  const warm = Math.min(maxWorkers, options.warm ?? 0);
  const idleMs = options.idleMs ?? 60_000;
  const jobsPerWorker = options.jobsPerWorker ?? 100;
  const loadTimeoutMs = options.loadTimeoutMs ?? 60_000;
  // A rendering worker's browser profile goes to a directory of the pool's own, the only place a
  // worker may write (removed when the pool closes).
  const tempDir = options.chromium ? Deno.makeTempDirSync({ prefix: "scan-workers-" }) : undefined;
  // A worker may read the modules it is told to load (the program's own, under lib/, in
  // production; a test's stand-ins elsewhere), and nothing else of the disk.
  const moduleDirs = [
    ...Object.values(options.scanners ?? {}),
    ...Object.values(options.jobs ?? {}),
  ]
    .filter((u) => u.startsWith("file:")).map((u) => dirname(fromFileUrl(u)));
  const youngOf = (heapMb: number) => Math.min(16, Math.max(4, Math.round(heapMb / 16)));
  const command = workerCommand({
    tempDir,
    deno: options.deno,
    heapMb: options.heapMb,
    youngMb: options.youngMb ?? youngOf(options.heapMb),
    chromium: options.chromium ?? null,
    module: options.module,
    read: [...moduleDirs, ...(options.read ?? [])],
  });
  const ownHeap = options.ownHeap ?? {};
  // The general workers load every module but those of the kinds with workers of their own.
  const generalJobs = Object.fromEntries(
    Object.entries(options.jobs ?? {}).filter(([kind]) => !(kind in ownHeap)),
  );
  const hello = encodeFrame({ scanners: options.scanners ?? {}, jobs: generalJobs });
  /** What a worker of its own for `kind` is started with and told (built on first use). */
  const sorts = new Map<string, { command: typeof command; hello: Uint8Array }>();
  const sortOf = (kind: string) => {
    let known = sorts.get(kind);
    if (!known) {
      const heapMb = Math.min(options.heapMb, ownHeap[kind]);
      known = {
        // No browser: such a worker renders nothing.
        command: workerCommand({
          deno: options.deno,
          heapMb,
          youngMb: youngOf(heapMb),
          exposeGc: true,
          chromium: null,
          module: options.module,
          read: [...moduleDirs, ...(options.read ?? [])],
        }),
        hello: encodeFrame({ scanners: {}, jobs: { [kind]: options.jobs?.[kind] } }),
      };
      sorts.set(kind, known);
    }
    return known;
  };
  /** Every worker whose process has not ended: each holds a slot. */
  const all = new Set<Proc>();
  const idle: Proc[] = [];
  /** Work waiting for a worker of its sort, in order of arrival (null: the pool closed). */
  const waiting: { sort: string | null; take: (p: Proc | null) => void }[] = [];
  /** Exits of killed workers in progress (close waits for them). */
  const exits = new Set<Promise<unknown>>();
  let nextId = 1;
  let killed = 0;
  let closed = false;
  /** Workers that ended before loading, in a row: warm ones are restarted after a pause. */
  let failedStarts = 0;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;

  const kill = (p: Proc) => {
    p.dead = true;
    clearTimeout(p.idleTimer);
    const i = idle.indexOf(p);
    if (i >= 0) idle.splice(i, 1);
    try {
      p.child.kill("SIGKILL");
    } catch { /* already gone */ }
  };

  const spawn = (sort: string | null = null): Proc => {
    const started = sort === null ? { command, hello } : sortOf(sort);
    const child = new Deno.Command(started.command.command, {
      args: started.command.args,
      cwd: started.command.cwd,
      env: started.command.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let loaded: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    ready.catch(() => {});
    const p: Proc = {
      pid: child.pid,
      sort,
      child,
      writer: child.stdin.getWriter(),
      ready,
      pending: null,
      uses: 0,
      loaded: false,
      dead: false,
      killedFor: null,
      stderr: "",
      idleTimer: undefined,
    };
    all.add(p);
    p.writer.write(started.hello).catch(() => {});
    const loadTimer = setTimeout(() => {
      failed(new ScanIsolationError("the worker did not load in time", "crash"));
      kill(p);
    }, loadTimeoutMs);
    const stderrRead = readStderr(p);
    readReplies(p, (version) => {
      clearTimeout(loadTimer);
      // Another Deno than the server's (a different `deno` first on the PATH): not used.
      if (version !== Deno.version.deno) {
        p.stderr += `\nthe worker runs Deno ${version}, the server ${Deno.version.deno}: ` +
          "grant --allow-run the server's own Deno (docs/running.md)";
        kill(p);
        return;
      }
      p.loaded = true;
      failedStarts = 0;
      loaded();
    });
    // The exit may be told before the last of stderr is read (the reason of a crash): the end of
    // stderr is waited for, a little (a process the worker started may still hold it open).
    const exit = child.status.then(async (status) => {
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stderrRead, new Promise((r) => grace = setTimeout(r, STDERR_GRACE_MS))]);
      clearTimeout(grace);
      clearTimeout(loadTimer);
      all.delete(p);
      p.dead = true;
      clearTimeout(p.idleTimer);
      const i = idle.indexOf(p);
      if (i >= 0) idle.splice(i, 1);
      const error = OUT_OF_MEMORY.test(p.stderr)
        ? memoryError(options.heapMb)
        : new ScanIsolationError(
          `the worker crashed (${
            status.signal ? `signal ${status.signal}` : `exit code ${status.code}`
          })${lastLine(p.stderr)}`,
          "crash",
        );
      failed(error);
      if (!p.loaded && !closed && p.killedFor === null) {
        failedStarts++;
        options.onStartFailed?.({ pid: p.pid, error: error.message });
      }
      const pending = p.pending;
      p.pending = null;
      if (pending && p.killedFor === null) {
        killed++;
        options.onKilled?.({
          work: pending.work,
          cause: error.kind,
          pid: p.pid,
          killed,
        });
        pending.settle(error);
      }
      refill();
    });
    exits.add(exit);
    exit.finally(() => exits.delete(exit));
    return p;
  };

  /**
   * Keeps the end of a worker's stderr (and drains it, so the worker never blocks on it). The text
   * is cut back to its last STDERR_TAIL characters only once it has doubled: each byte is copied a
   * bounded number of times, however the worker writes it.
   */
  const readStderr = async (p: Proc) => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of p.child.stderr) {
        p.stderr += decoder.decode(chunk, { stream: true });
        if (p.stderr.length > 2 * STDERR_TAIL) p.stderr = p.stderr.slice(-STDERR_TAIL);
      }
    } catch { /* the process is gone */ }
  };

  /** Reads a worker's answers until it ends; a frame it should not have sent kills it. */
  const readReplies = async (p: Proc, onReady: (version: string) => void) => {
    const frames = new FrameReader(p.child.stdout, MAX_REPLY_BYTES);
    try {
      for (;;) {
        const m = await frames.next() as Reply | RawFrame | Ready | null;
        if (m === null) return;
        if ("ready" in m) {
          onReady(m.ready);
          continue;
        }
        const pending = p.pending;
        if (!pending || m.id !== pending.id) continue;
        // A request for the next piece of a stream job's input (frames.ts pullFrame); a raw
        // frame with bytes is not one a worker sends, and is ignored.
        if ("parts" in m) {
          if (m.parts.length === 0) pending.onMore?.();
        } else if ("progress" in m) pending.onProgress?.(m.progress);
        else {
          p.pending = null;
          pending.settle(m);
        }
      }
    } catch (error) {
      if (error instanceof FrameError) {
        p.stderr = `${p.stderr.slice(-STDERR_TAIL)}\n${error.message}`;
        kill(p);
      }
    }
  };

  /** Ends a worker that did nothing wrong (idle too long, or used enough). */
  const retire = (p: Proc) => {
    if (p.dead) return;
    p.dead = true;
    clearTimeout(p.idleTimer);
    const i = idle.indexOf(p);
    if (i >= 0) idle.splice(i, 1);
    // Its stdin closing ends it (lib/kit/isolate/worker_process.ts); a kill if it lingers.
    p.writer.close().catch(() => {});
    const linger = setTimeout(() => kill(p), 5000);
    p.child.status.finally(() => clearTimeout(linger));
  };

  /** Idle general workers (those kept warm are of this sort). */
  const idleGeneral = () => idle.filter((p) => p.sort === null).length;

  /** Hands a free worker to the next waiting work, or keeps it idle. */
  const release = (p: Proc) => {
    if (p.dead || closed) return refill();
    if (p.uses >= jobsPerWorker) {
      retire(p);
      return refill();
    }
    const next = waiting[0];
    if (next && next.sort === p.sort) {
      waiting.shift();
      return next.take(p);
    }
    // The first in line needs a worker of the other sort: this one gives up its slot, and
    // refill() starts that worker once this one's process has ended.
    if (next) return retire(p);
    idle.push(p);
    if (p.sort !== null || idleGeneral() > warm) {
      p.idleTimer = setTimeout(() => {
        if (p.sort !== null || idleGeneral() > warm) retire(p);
      }, idleMs);
    }
  };

  /** After a worker ended: starts one for waiting work, or keeps the warm ones loaded. */
  const refill = () => {
    if (closed) return;
    while (waiting.length && all.size < maxWorkers) {
      const next = waiting.shift()!;
      next.take(spawn(next.sort));
    }
    if (waiting.length || restartTimer) return;
    const live = () => [...all].filter((p) => !p.dead && p.sort === null).length;
    if (live() >= warm) return;
    if (failedStarts === 0) {
      while (live() < warm && all.size < maxWorkers) idle.push(spawn());
      return;
    }
    // Workers that end before they load (a missing permission, a broken install) are not
    // restarted in a tight loop: the warm ones come back after a pause that doubles, up to 30 s.
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      while (live() < warm && all.size < maxWorkers) idle.push(spawn());
    }, Math.min(30_000, 250 * 2 ** failedStarts));
  };

  /** A worker for work of `sort` (null: a scan or a job of the general workers). */
  const acquire = async (sort: string | null): Promise<Proc | null> => {
    const i = idle.findLastIndex((p) => p.sort === sort);
    if (i >= 0) {
      const p = idle.splice(i, 1)[0];
      clearTimeout(p.idleTimer);
      return p;
    }
    if (all.size < maxWorkers) return spawn(sort);
    const taken = new Promise<Proc | null>((take) => waiting.push({ sort, take }));
    // Every slot is taken: an idle worker of the other sort gives its slot up (refill() starts
    // this work's worker once its process has ended).
    const other = idle.find((p) => p.sort !== sort);
    if (other) retire(other);
    return await taken;
  };

  /**
   * Sends one scan or job to a worker (waiting for one when all are busy) and resolves with its
   * final answer; rejects with a ScanIsolationError when the worker is ended by its bounds or
   * crashes, and with the worker's error when the work itself failed.
   */
  const send = async (
    build: (id: number) => ScanRequestMessage | JobRequestMessage | StreamRequestMessage,
    timeoutMs: number,
    opts: {
      onProgress?: (progress: unknown) => void;
      /** Retire the worker afterwards (a rendering scan's: see run). */
      retireAfter?: boolean;
      /** The job's kind when it has workers of its own (ownHeap). */
      sort?: string | null;
      /** A stream job's input. */
      input?: ReadableStream<Uint8Array>;
    } = {},
  ): Promise<Extract<Reply, { ok: true }>> => {
    if (closed) throw new ScanIsolationError("the workers are closed", "crash");
    const p = await acquire(opts.sort ?? null);
    if (!p) throw new ScanIsolationError("the workers were closed", "crash");
    p.uses++;
    // A worker that could not load fails this work like a crashed one (scans are retried).
    await p.ready;
    if (p.dead) throw new ScanIsolationError("the worker ended before its work", "crash");
    const id = nextId++;
    const message = build(id);
    const work = "job" in message ? "job" : "scan";
    // A stream job's input goes to this worker as it asks; a write to a process that is gone
    // fails, and its exit settles the work.
    const feed = opts.input
      ? streamFeed(opts.input, (m) => {
        if (!("chunk" in m)) return p.writer.write(encodeFrame(m)).catch(() => {});
        // The piece goes as it is, after its head: no copy of it is made here.
        p.writer.write(bytesFrameHead(m.id, m.chunk.byteLength)).catch(() => {});
        return p.writer.write(m.chunk).catch(() => {});
      })
      : null;
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // SIGKILL: no code outlasts it. The slot is free once the process is gone (at once).
        p.killedFor = "time";
        p.pending = null;
        killed++;
        options.onKilled?.({ work, cause: "time", pid: p.pid, killed });
        kill(p);
        settle(timeError(timeoutMs));
      }, timeoutMs);
      let settled = false;
      const settle = (r: Reply | ScanIsolationError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        feed?.stop();
        if (r instanceof ScanIsolationError) {
          reject(r);
          return;
        }
        if ("progress" in r) return; // never: steps go to onProgress (readReplies)
        if (opts.retireAfter) {
          retire(p);
          refill();
        } else release(p);
        if (r.ok) resolve(r);
        else reject(new Error(r.error));
      };
      p.pending = {
        id,
        work,
        settle,
        onProgress: opts.onProgress,
        onMore: feed ? () => feed.more(id) : undefined,
      };
      p.writer.write(encodeFrame(message)).catch(() => {/* its exit settles the work */});
    });
  };

  for (let i = 0; i < warm; i++) idle.push(spawn());

  return {
    kind: "process",
    stats: () => ({
      kind: "process",
      workers: all.size,
      busy: [...all].filter((p) => p.pending).length,
      waiting: waiting.length,
      killed,
      lost: 0,
      maxWorkers,
    }),
    async warmed() {
      await Promise.allSettled(idle.map((p) => p.ready));
    },
    async run(service, target, config: Config, now, onProgress) {
      // A rendering scan has its render budget on top (docs/rendering.md), and the worker that
      // rendered holds playwright-core (tens of MB): it is not kept for reuse.
      const render = target.render === true;
      const reply = await send(
        (id): ScanRequestMessage => ({
          id,
          service,
          target,
          config: workerConfig(config),
          nowMs: now().getTime(),
        }),
        options.timeoutMs + (render ? config.render.budgetMs : 0),
        { onProgress: onProgress as (progress: unknown) => void, retireAfter: render },
      );
      if (!("outcome" in reply)) throw new Error("a worker answered a scan with a job's answer");
      return reply.outcome;
    },
    async runJob(job, timeoutMs) {
      const reply = await send((id): JobRequestMessage => ({ id, job }), timeoutMs, {
        sort: job.kind in ownHeap ? job.kind : null,
      });
      if (!("answer" in reply)) throw new Error("a worker answered a job with a scan's outcome");
      return reply.answer;
    },
    async runStream(job, input, timeoutMs, onProgress) {
      const reply = await send(
        (id): StreamRequestMessage => ({ id, job, stream: true }),
        timeoutMs,
        { onProgress, input, sort: job.kind in ownHeap ? job.kind : null },
      );
      if (!("answer" in reply)) throw new Error("a worker answered a job with a scan's outcome");
      return reply.answer;
    },
    async close() {
      closed = true;
      clearTimeout(restartTimer);
      for (const p of all) {
        const pending = p.pending;
        p.pending = null;
        pending?.settle(new ScanIsolationError("the workers were closed", "crash"));
        kill(p);
      }
      idle.length = 0;
      for (const w of waiting.splice(0)) w.take(null);
      await Promise.allSettled([...exits]);
      if (tempDir) await Deno.remove(tempDir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * What a worker said of its end, to close a crash's message: Deno's last "error: ..." line (an
 * uncaught error, a module that does not load), else its last line; empty when it said nothing.
 */
function lastLine(stderr: string): string {
  const lines = stderr.trim().split("\n").map((l) => l.trim()).filter(Boolean);
  const line = lines.findLast((l) => l.startsWith("error:")) ?? lines.at(-1);
  return line ? `: ${line.slice(0, 300)}` : "";
}
