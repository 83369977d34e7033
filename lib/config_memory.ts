/**
 * The memory plan: how one process divides the memory of its machine (or of `MEMORY_MB`) between
 * the server's own isolate, the scan threads (how many, each one's V8 old and young generation)
 * and the connections' buffers, so its resident memory stays inside a budget. lib/config.ts builds
 * it with the rest of the configuration; main.ts prints it at start-up.
 *
 * Why these numbers (measured with deno 2.9.6, docs/running.md "Memory"):
 * - the server without scan threads is about 110-120 MB resident at idle, and its own isolate
 *   grows under load; {@link SERVER_MB} is what it is given;
 * - an idle scan thread costs about 25-30 MB besides its heap (its runtime, the scanners' code);
 *   {@link THREAD_OVERHEAD_MB};
 * - a thread's heap and young generation are its `resourceLimits`, which Deno honours only when
 *   the process has no `--max-old-space-size` / `--max-semi-space-size` flag (a process-wide V8
 *   flag overrides every thread's own limit): the start task sets neither.
 */
import process from "node:process";
import os from "node:os";

/** What the server's own isolate, runtime and KV are given, in MB. */
export const SERVER_MB = 170;
/** What a scan thread costs besides its V8 heap limits, in MB. */
export const THREAD_OVERHEAD_MB = 26;
/** The smallest old generation a scan thread gets: below it ordinary large pages fail. */
export const MIN_THREAD_HEAP_MB = 64;
/** The largest old generation a scan thread gets by default (SCAN_HEAP_MB may set more). */
export const MAX_THREAD_HEAP_MB = 192;
/** The share of the machine's memory the process plans to stay under (the rest: the system). */
export const BUDGET_SHARE = 0.78;

/** The plan. */
export interface MemoryPlan {
  /** The memory planned for, in MB. */
  memoryMb: number;
  /** Where that figure came from. */
  source: "MEMORY_MB" | "container limit" | "machine" | "assumed";
  /** The resident memory the process plans to stay under, in MB. */
  budgetMb: number;
  /** Scan threads at most (scans and other isolated jobs beyond them wait for one). */
  threads: number;
  /** Each thread's V8 old-generation limit, in MB. */
  heapMb: number;
  /** Each thread's V8 young-generation limit, in MB. */
  youngMb: number;
  /** Threads kept loaded while there is nothing to do (the others end after {@link idleMs}). */
  warm: number;
  /** An idle thread beyond {@link warm} ends after this long without work. */
  idleMs: number;
  /** What the connections' buffers may hold in total, in MB (lib/net/conn_guard.ts). */
  connectionMb: number;
  /**
   * Large request bodies (code to validate) read at once, in MB, within the server's share
   * (lib/web/http_body.ts: past it, 429 before the body is read).
   */
  bodyMb: number;
}

/** Settings that override the plan's choices. */
export interface MemorySettings {
  /** MEMORY_MB: the memory to plan for, instead of the machine's. */
  memoryMb?: number;
  /** SCAN_THREADS: threads at most. */
  threads?: number;
  /** SCAN_HEAP_MB: each thread's old generation. */
  heapMb?: number;
  /** SCAN_THREADS_WARM: threads kept loaded while idle. */
  warm?: number;
  /** SCAN_THREAD_IDLE_MS: when an idle thread beyond the warm ones ends. */
  idleMs?: number;
}

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
 * {@link SERVER_MB} and the connections 8% (at least 16 MB); the rest goes to scan threads: as
 * many as fit (up to 4) with at least {@link MIN_THREAD_HEAP_MB} of heap each, then each one's
 * heap as large as fits, up to {@link MAX_THREAD_HEAP_MB}. At least one thread always runs.
 */
export function memoryPlan(
  settings: MemorySettings,
  machine: { mb: number; source: "container limit" | "machine" } | null,
): MemoryPlan {
  const memoryMb = settings.memoryMb ?? machine?.mb ?? 1024;
  const source = settings.memoryMb ? "MEMORY_MB" : machine?.source ?? "assumed";
  const budgetMb = Math.floor(memoryMb * BUDGET_SHARE);
  const connectionMb = Math.max(16, Math.floor(budgetMb * 0.08));
  const forThreads = Math.max(0, budgetMb - SERVER_MB - connectionMb);
  const young = (heap: number) => Math.min(16, Math.max(4, Math.round(heap / 16)));
  /** The heap each of `n` threads can have within the threads' share. */
  const heapFor = (n: number) => {
    const each = Math.floor(forThreads / n) - THREAD_OVERHEAD_MB;
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
    const each = heapMb + young(heapMb) + THREAD_OVERHEAD_MB;
    threads = settings.threads ?? Math.max(1, Math.min(maxThreads, Math.floor(forThreads / each)));
  } else {
    threads = settings.threads ?? 1;
    if (!settings.threads) {
      for (let n = maxThreads; n >= 1; n--) {
        if (heapFor(n) >= MIN_THREAD_HEAP_MB) {
          threads = n;
          break;
        }
      }
    }
    heapMb = Math.max(MIN_THREAD_HEAP_MB, heapFor(threads));
  }
  return {
    memoryMb,
    source,
    budgetMb,
    threads,
    heapMb,
    youngMb: young(heapMb),
    warm: Math.min(threads, settings.warm ?? 1),
    idleMs: settings.idleMs ?? 60_000,
    connectionMb,
    bodyMb: Math.max(8, Math.floor(budgetMb * 0.04)),
  };
}

/** One start-up line saying what the plan chose and why. */
export function describeMemoryPlan(plan: MemoryPlan): string {
  const from = plan.source === "MEMORY_MB"
    ? "MEMORY_MB"
    : plan.source === "assumed"
    ? "assumed: the machine's memory could not be read; set MEMORY_MB"
    : `this ${plan.source === "machine" ? "machine" : "container's limit"}; MEMORY_MB to change`;
  return `Memory: planned for ${plan.memoryMb} MB (${from}), budget ${plan.budgetMb} MB: up to ` +
    `${plan.threads} scan thread${plan.threads === 1 ? "" : "s"} of ${plan.heapMb} MB heap + ` +
    `${plan.youngMb} MB young generation (${plan.warm} kept warm, the others end after ` +
    `${Math.round(plan.idleMs / 1000)} s idle); connection buffers ${plan.connectionMb} MB; ` +
    `large request bodies read at once ${plan.bodyMb} MB`;
}
