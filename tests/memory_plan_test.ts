/**
 * The memory plan (lib/kit/config_memory.ts): scan workers (processes by default, threads with
 * SCAN_ISOLATION=thread) sized from the machine's memory or MEMORY_MB, and the limits a thread is
 * given are the limits it has. Peak memory under load is measured by tests/bench/memory_peaks.ts.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import {
  BUDGET_SHARE,
  describeMemoryPlan,
  machineMemory,
  memoryPlan,
  PROCESS_OVERHEAD_MB,
  SERVER_MB,
  THREAD_OVERHEAD_MB,
} from "../lib/kit/config_memory.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { startScanThreads } from "../lib/kit/isolate/scan_threads.ts";

/** What a plan's workers and the rest may hold at most, in MB. */
const planned = (p: ReturnType<typeof memoryPlan>) =>
  SERVER_MB + p.connectionMb + p.threads * (p.heapMb + p.youngMb + p.overheadMb);

Deno.test("[memory plan] a 512 MB machine: one worker process, whose limits fit the 400 MB budget where two would not; two threads", () => {
  const p = memoryPlan({ memoryMb: 512 }, null);
  assert.equal(p.budgetMb, Math.floor(512 * BUDGET_SHARE));
  assert.equal(p.overheadMb, PROCESS_OVERHEAD_MB);
  assert.equal(p.threads, 1);
  assert.ok(p.heapMb >= 64, `heap ${p.heapMb} MB`);
  assert.ok(planned(p) <= p.budgetMb, `${planned(p)} MB planned of ${p.budgetMb}`);
  // Two processes of the smallest heap would not fit (measured: 420 MB at the peak of the 500-scan
  // queue with two, tests/bench/memory_peaks.ts).
  assert.ok(planned({ ...p, threads: 2, heapMb: 64, youngMb: 4 }) > p.budgetMb);
  assert.equal(p.warm, 1);
  assert.match(
    describeMemoryPlan(p),
    /^Memory: planned for 512 MB \(MEMORY_MB\), budget 399 MB: up to 1 scan worker process of/,
  );
  // Threads cost less each (and cannot be stopped in code that never returns): two fit.
  const t = memoryPlan({ memoryMb: 512, isolation: "thread" }, null);
  assert.deepEqual([t.threads, t.overheadMb], [2, THREAD_OVERHEAD_MB]);
  assert.ok(planned(t) <= t.budgetMb);
  assert.match(describeMemoryPlan(t), /up to 2 scan threads of/);
});

Deno.test("[memory plan] more memory, more and larger workers, up to 4 of 192 MB; settings win", () => {
  const gb = memoryPlan({}, { mb: 1024, source: "machine" });
  assert.equal(gb.threads, 4);
  assert.ok(planned(gb) <= gb.budgetMb);
  const big = memoryPlan({}, { mb: 24_000, source: "machine" });
  assert.deepEqual([big.threads, big.heapMb, big.youngMb], [4, 192, 12]);
  const container = memoryPlan({}, { mb: 512, source: "container limit" });
  assert.equal(container.threads, 1);
  assert.match(describeMemoryPlan(container), /this container's limit/);
  // Too little for two: one worker, never none.
  assert.equal(memoryPlan({ memoryMb: 300 }, null).threads, 1);
  // Explicit settings.
  assert.equal(memoryPlan({ memoryMb: 512, threads: 3 }, null).threads, 3);
  const heap = memoryPlan({ memoryMb: 2048, heapMb: 100 }, null);
  assert.equal(heap.heapMb, 100);
  assert.equal(heap.threads, 4);
  assert.match(describeMemoryPlan(memoryPlan({}, null)), /assumed: .* set MEMORY_MB/);
});

Deno.test("[memory plan] the configuration carries it: MEMORY_MB, the worker's concurrency, the machine's memory", () => {
  const c = loadConfig({ MEMORY_MB: "512" });
  assert.equal(c.memory.memoryMb, 512);
  assert.equal(c.isolation.threads, 1);
  assert.equal(c.workerConcurrency, 1, "as many scans at once as workers");
  const t = loadConfig({ MEMORY_MB: "512", SCAN_ISOLATION: "thread" });
  assert.deepEqual([t.isolation.threads, t.workerConcurrency], [2, 2]);
  assert.equal(loadConfig({ MEMORY_MB: "512", WORKER_CONCURRENCY: "3" }).workerConcurrency, 3);
  assert.throws(() => loadConfig({ MEMORY_MB: "100" }), /MEMORY_MB/);
  // This machine's memory, read with --allow-sys only (no /proc file).
  const m = machineMemory();
  assert.ok(m && m.mb > 256, JSON.stringify(m));
});

Deno.test("[memory plan] a thread's heap limits are the plan's: the start task sets no process-wide V8 heap flag", async () => {
  // A process-wide --max-old-space-size or --max-semi-space-size overrides every thread's own
  // limits (measured with deno 2.9.6: 160 MB for a thread asked for 48 or 300), so the start task
  // must set neither.
  const start = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)))
    .tasks.start as string;
  assert.doesNotMatch(start, /max-old-space-size|max-semi-space-size|max-heap-size/);
  const runner = startScanThreads({
    heapMb: 48,
    youngMb: 4,
    timeoutMs: 20_000,
    threadUrl: new URL("./fixtures/greedy_thread.ts", import.meta.url),
  });
  try {
    const o = await runner.run(
      "visibility",
      normaliseTarget("http://limits.test/"),
      loadConfig({}),
      () => new Date(),
    );
    const result = o.record.result as unknown as {
      heapLimitMb: number;
      resourceLimits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number };
    };
    assert.equal(result.resourceLimits.maxOldGenerationSizeMb, 48);
    assert.equal(result.resourceLimits.maxYoungGenerationSizeMb, 4);
    assert.ok(result.heapLimitMb <= 48 + 4 + 2, `heap limit ${result.heapLimitMb} MB`);
  } finally {
    await runner.close();
  }
});
