/**
 * The memory plan: how one process divides the memory of its machine (or of `MEMORY_MB`) between
 * the server's own isolate, the scan workers (how many, each one's V8 old and young generation)
 * and the connections' buffers, so its resident memory stays inside a budget. lib/kit/config.ts builds
 * it with the rest of the configuration; main.ts prints it at start-up.
 *
 * Why these numbers (measured with deno 2.9.6, docs/running.md "Memory"):
 * - the server without scan threads is about 110-120 MB resident at idle, and its own isolate
 *   grows under load; {@link SERVER_MB} is what it is given;
 * - an idle scan thread costs about 25-30 MB besides its heap (its runtime, the scanners' code);
 *   {@link THREAD_OVERHEAD_MB}; a worker process (SCAN_ISOLATION=process, the default) about 34 MB
 *   of private memory besides its heap (a runtime of its own, the scanners' and jobs' code, the
 *   thread that watches for its server): {@link PROCESS_OVERHEAD_MB};
 * - a thread's heap and young generation are its `resourceLimits`, which Deno honours only when
 *   the process has no `--max-old-space-size` / `--max-semi-space-size` flag (a process-wide V8
 *   flag overrides every thread's own limit): the start task sets neither;
 * - a local Chromium (the optional rendering step, docs/rendering.md) holds about
 *   {@link CHROMIUM_MB} while it renders, beside the server: the plan keeps that much for each one
 *   that may run at once, and turns local rendering off where it does not fit ({@link LocalRender}).
 */
import process from "node:process";
import os from "node:os";

/** What the server's own isolate, runtime and KV are given, in MB. */
export const SERVER_MB = 170;
/** What a scan thread costs besides its V8 heap limits, in MB. */
export const THREAD_OVERHEAD_MB = 26;
/**
 * What a worker process costs besides its V8 heap limits, in MB: its private memory once loaded
 * was 58 MB with 24 MB of it V8's heap (deno 2.9.6, `/proc/<pid>/smaps_rollup` Private_Dirty;
 * tests/bench/isolation_bench.ts prints it), rounded up. The Deno executable's pages are shared
 * with the server's and counted there.
 */
export const PROCESS_OVERHEAD_MB = 36;
/** The smallest old generation a scan worker gets: below it ordinary large pages fail. */
export const MIN_THREAD_HEAP_MB = 64;
/** The largest old generation a scan worker gets by default (SCAN_HEAP_MB may set more). */
export const MAX_THREAD_HEAP_MB = 192;
/** The share of the machine's memory the process plans to stay under (the rest: the system). */
export const BUDGET_SHARE = 0.78;
/**
 * What one local Chromium holds while it renders a scan's pages, in MB: the proportional set size
 * of its process tree measured 373 to 419 MB over a 10-page render in four runs (tests/bench/render_bench.ts,
 * docs/rendering.md "What it costs"), rounded up.
 */
export const CHROMIUM_MB = 420;
/**
 * The old generation a scan worker needs to render (playwright-core's client runs in it): a
 * rendered scan of the fixture SPA failed at 48 and 56 MB and completed at 64 MB (and the 8-page
 * hostile site at 64 MB), measured with deno 2.9.6; half as much again for room. Local rendering
 * is on only where one thread of this size fits beside the Chromium.
 */
export const RENDER_THREAD_HEAP_MB = 96;

/** Whether a local Chromium may render here, and why (the start-up line says it). */
export interface LocalRender {
  /** A rendering scan may start the local Chromium. */
  on: boolean;
  /** What the plan keeps for the Chromiums that may run at once (0 when off), in MB. */
  reservedMb: number;
  /** The least memory in which local rendering fits, for this RENDER_CONCURRENCY, in MB. */
  minMb: number;
  /** Why, in plain words. */
  why: string;
}

/** The plan. */
export interface MemoryPlan {
  /** The memory planned for, in MB. */
  memoryMb: number;
  /** Where that figure came from. */
  source: "MEMORY_MB" | "container limit" | "machine" | "assumed";
  /** The resident memory the process plans to stay under, in MB. */
  budgetMb: number;
  /**
   * Scan workers at most (processes, or threads with SCAN_ISOLATION=thread): scans and other
   * isolated jobs beyond them wait for one.
   */
  threads: number;
  /** What each worker costs besides its heap limits, in MB (a process's or a thread's). */
  overheadMb: number;
  /** Each thread's V8 old-generation limit, in MB. */
  heapMb: number;
  /** Each thread's V8 young-generation limit, in MB. */
  youngMb: number;
  /** Threads kept loaded while there is nothing to do (the others end after {@link idleMs}). */
  warm: number;
  /** An idle thread beyond {@link warm} ends after this long without work. */
  idleMs: number;
  /** What the connections' buffers may hold in total, in MB (lib/kit/net/conn_guard.ts). */
  connectionMb: number;
  /**
   * Large request bodies (code to validate) read at once, in MB, within the server's share
   * (lib/kit/web/http_body.ts: past it, 429 before the body is read).
   */
  bodyMb: number;
  /** Local rendering: whether it fits, and the memory kept for it. */
  localRender: LocalRender;
}

/** Settings that override the plan's choices. */
export interface MemorySettings {
  /** MEMORY_MB: the memory to plan for, instead of the machine's. */
  memoryMb?: number;
  /** SCAN_THREADS: workers at most. */
  threads?: number;
  /** SCAN_ISOLATION: what a worker is (default "process"); sizes what each costs. */
  isolation?: "process" | "thread" | "inline";
  /** SCAN_HEAP_MB: each thread's old generation. */
  heapMb?: number;
  /** SCAN_THREADS_WARM: threads kept loaded while idle. */
  warm?: number;
  /** SCAN_THREAD_IDLE_MS: when an idle thread beyond the warm ones ends. */
  idleMs?: number;
  /**
   * The local Chromium: `why` it cannot run when it cannot (a remote browser is named, it is
   * turned off, not installed or not permitted); RENDER_LOCAL (`auto`: on where it fits, `on`:
   * forced, `off`); RENDER_CONCURRENCY (Chromiums at once). Absent: no local rendering.
   */
  localRender?: { unavailable?: string; mode: "auto" | "on" | "off"; concurrency: number };
}

/** A thread's young generation for a heap of `heap` MB. */
const young = (heap: number) => Math.min(16, Math.max(4, Math.round(heap / 16)));

/** Threads at most when nothing limits them (more adds memory, not throughput, on a few cores). */
const DEFAULT_MAX_THREADS = 4;

/**
 * The machine's memory in MB as this process may use it: the smaller of the system's total and a
 * container's (cgroup) limit, both readable with `--allow-sys` (no file under /proc or /sys, which
 * Deno refuses without `--allow-all`). Null when neither can be read.
 */
export function machineMemory(): { mb: number; source: "container limit" | "machine" } | null {
  let total = 0;
  let limit = 0;
  try {
    total = osTotal();
  } catch { /* no --allow-sys */ }
  try {
    limit = constrainedMemory();
  } catch { /* not available */ }
  const mb = (bytes: number) => Math.floor(bytes / 1048576);
  // An unlimited cgroup reads as about 2^63.
  if (limit > 0 && limit < 2 ** 50 && (!total || limit < total)) {
    return { mb: mb(limit), source: "container limit" };
  }
  return total > 0 ? { mb: mb(total), source: "machine" } : null;
}

// Read through Deno's Node compatibility layer (process.constrainedMemory reads the cgroup limit).
const osTotal = () => os.totalmem();
const constrainedMemory = () =>
  typeof process.constrainedMemory === "function" ? process.constrainedMemory() : 0;

/**
 * The plan for `settings` on a machine of `machine` MB (null: unknown, planned as 1024 MB).
 *
 * The budget is {@link BUDGET_SHARE} of the memory (400 MB of 512). From it the server keeps
 * {@link SERVER_MB} and the connections 8% (at least 16 MB), and local rendering, where it is on,
 * {@link CHROMIUM_MB} per Chromium that may run at once; the rest goes to scan workers: as many
 * as fit (up to 4) with at least {@link MIN_THREAD_HEAP_MB} of heap each
 * ({@link RENDER_THREAD_HEAP_MB} when they may render locally), then each one's heap as large as
 * fits, up to {@link MAX_THREAD_HEAP_MB}. At least one thread always runs.
 */
export function memoryPlan(
  settings: MemorySettings,
  machine: { mb: number; source: "container limit" | "machine" } | null,
): MemoryPlan {
  const memoryMb = settings.memoryMb ?? machine?.mb ?? 1024;
  const source = settings.memoryMb ? "MEMORY_MB" : machine?.source ?? "assumed";
  const budgetMb = Math.floor(memoryMb * BUDGET_SHARE);
  const connectionMb = Math.max(16, Math.floor(budgetMb * 0.08));
  const overheadMb = settings.isolation === "thread" ? THREAD_OVERHEAD_MB : PROCESS_OVERHEAD_MB;
  const localRender = localRenderFor(settings, memoryMb, overheadMb);
  // A local Chromium's share comes first: the threads are sized in what is left.
  const forThreads = Math.max(0, threadShare(memoryMb) - localRender.reservedMb);
  // A thread that may render needs room for playwright-core's client.
  const minHeap = localRender.on ? RENDER_THREAD_HEAP_MB : MIN_THREAD_HEAP_MB;
  /** The heap each of `n` threads can have within the threads' share. */
  const heapFor = (n: number) => {
    const each = Math.floor(forThreads / n) - overheadMb;
    // young(heap) comes out of the same share: solve heap + young(heap) <= each.
    let heap = Math.min(MAX_THREAD_HEAP_MB, each - young(each));
    while (heap > 0 && heap + young(heap) > each) heap--;
    return heap;
  };
  const maxThreads = settings.threads ?? DEFAULT_MAX_THREADS;
  let threads: number;
  let heapMb: number;
  if (settings.heapMb) {
    heapMb = settings.heapMb;
    const each = heapMb + young(heapMb) + overheadMb;
    threads = settings.threads ?? Math.max(1, Math.min(maxThreads, Math.floor(forThreads / each)));
  } else {
    threads = settings.threads ?? 1;
    if (!settings.threads) {
      for (let n = maxThreads; n >= 1; n--) {
        if (heapFor(n) >= minHeap) {
          threads = n;
          break;
        }
      }
    }
    heapMb = Math.max(minHeap, heapFor(threads));
  }
  return {
    memoryMb,
    source,
    budgetMb,
    threads,
    overheadMb,
    heapMb,
    youngMb: young(heapMb),
    warm: Math.min(threads, settings.warm ?? 1),
    idleMs: settings.idleMs ?? 60_000,
    connectionMb,
    bodyMb: Math.max(8, Math.floor(budgetMb * 0.04)),
    localRender,
  };
}

/** What the scan workers (and a local Chromium) may hold of `memoryMb`: the budget less the rest. */
function threadShare(memoryMb: number): number {
  const budgetMb = Math.floor(memoryMb * BUDGET_SHARE);
  return budgetMb - SERVER_MB - Math.max(16, Math.floor(budgetMb * 0.08));
}

/**
 * The least memory in which `concurrency` local Chromiums fit beside the server and one scan
 * worker that can render ({@link RENDER_THREAD_HEAP_MB}): 1015 MB for one beside a worker
 * process (1000 MB beside a thread).
 */
export function localRenderMinMb(
  concurrency: number,
  overheadMb: number = PROCESS_OVERHEAD_MB,
): number {
  const needed = concurrency * CHROMIUM_MB + RENDER_THREAD_HEAP_MB +
    young(RENDER_THREAD_HEAP_MB) + overheadMb;
  let mb = 256;
  while (threadShare(mb) < needed) mb++;
  return mb;
}

/** Whether a local Chromium may render in `memoryMb` MB (see {@link LocalRender}). */
function localRenderFor(
  settings: MemorySettings,
  memoryMb: number,
  overheadMb: number,
): LocalRender {
  const r = settings.localRender;
  const minMb = localRenderMinMb(r?.concurrency ?? 1, overheadMb);
  const off = (why: string): LocalRender => ({ on: false, reservedMb: 0, minMb, why });
  if (!r) return off("no local browser");
  if (r.unavailable) return off(r.unavailable);
  if (r.mode === "off") return off("RENDER_LOCAL=off");
  const reservedMb = r.concurrency * CHROMIUM_MB;
  const kept = `${reservedMb} MB kept for ${
    r.concurrency === 1 ? "it" : `${r.concurrency} at once (RENDER_CONCURRENCY)`
  }`;
  if (memoryMb >= minMb) {
    return {
      on: true,
      reservedMb,
      minMb,
      why: `${memoryMb} MB planned, at least the ${minMb} MB it needs beside the server; ${kept}`,
    };
  }
  if (r.mode === "on") {
    return {
      on: true,
      reservedMb,
      minMb,
      why: `forced by RENDER_LOCAL=on under the ${minMb} MB it needs (${memoryMb} MB planned): ` +
        `${kept}, which leaves the scan workers less than they need; a rendering scan may run ` +
        "out of memory",
    };
  }
  return off(
    `${memoryMb} MB planned, under the ${minMb} MB a local Chromium (about ${CHROMIUM_MB} MB ` +
      "while it renders) needs beside the server and a scan worker; RENDER_LOCAL=on forces it, " +
      "RENDER_BROWSER_URL names a remote browser",
  );
}

/** One start-up line saying what the plan chose and why. */
export function describeMemoryPlan(plan: MemoryPlan): string {
  const from = plan.source === "MEMORY_MB"
    ? "MEMORY_MB"
    : plan.source === "assumed"
    ? "assumed: the machine's memory could not be read; set MEMORY_MB"
    : `this ${plan.source === "machine" ? "machine" : "container's limit"}; MEMORY_MB to change`;
  const threads = plan.overheadMb === THREAD_OVERHEAD_MB;
  const what = plan.threads === 1
    ? (threads ? "scan thread" : "scan worker process")
    : (threads ? "scan threads" : "scan worker processes");
  return `Memory: planned for ${plan.memoryMb} MB (${from}), budget ${plan.budgetMb} MB: up to ` +
    `${plan.threads} ${what} of ${plan.heapMb} MB heap + ` +
    `${plan.youngMb} MB young generation (${plan.warm} kept warm, the others end after ` +
    `${Math.round(plan.idleMs / 1000)} s idle); connection buffers ${plan.connectionMb} MB; ` +
    `large request bodies read at once ${plan.bodyMb} MB`;
}

/**
 * One start-up line saying whether this server renders pages (docs/rendering.md) and why: a
 * remote browser (its host only: an endpoint URL may carry a token), a local Chromium the memory
 * plan lets run, or neither, when rendering requests answer "not rendered" with that reason.
 */
export function describeRendering(
  browser:
    | { kind: "off"; reason?: string }
    | { kind: "local"; path: string }
    | { kind: "remote"; url: string; protocol: "cdp" | "playwright" },
  plan: MemoryPlan,
): string {
  if (browser.kind === "remote") {
    return `Rendering: on, remote browser (${browser.protocol === "cdp" ? "CDP" : "Playwright"}) ` +
      `at ${new URL(browser.url).host} (RENDER_BROWSER_URL); no memory kept for it here`;
  }
  if (browser.kind === "local") {
    return `Rendering: on, local Chromium ${browser.path}: ${plan.localRender.why}`;
  }
  return `Rendering: off (${
    browser.reason ?? plan.localRender.why
  }); a scan that asks to render answers "not rendered" with this reason`;
}
