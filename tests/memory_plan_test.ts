/**
 * The memory plan (lib/kit/config_memory.ts): scan threads sized from the machine's memory or
 * MEMORY_MB, and the limits a thread is given are the limits it has. Peak RSS under load is
 * measured by tests/bench/memory_peaks.ts.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import {
  BUDGET_SHARE,
  describeMemoryPlan,
  machineMemory,
  memoryPlan,
  SERVER_MB,
  THREAD_OVERHEAD_MB,
} from "../lib/kit/config_memory.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { startScanThreads } from "../lib/kit/isolate/scan_threads.ts";

/** What a plan's threads and the rest may hold at most, in MB. */
const planned = (p: ReturnType<typeof memoryPlan>) =>
  SERVER_MB + p.connectionMb + p.threads * (p.heapMb + p.youngMb + THREAD_OVERHEAD_MB);

Deno.test("[memory plan] a 512 MB machine: two threads whose limits fit the 400 MB budget", () => {
  const p = memoryPlan({ memoryMb: 512 }, null);
  assert.equal(p.budgetMb, Math.floor(512 * BUDGET_SHARE));
  assert.equal(p.threads, 2);
  assert.ok(p.heapMb >= 64, `heap ${p.heapMb} MB`);
  assert.ok(planned(p) <= p.budgetMb, `${planned(p)} MB planned of ${p.budgetMb}`);
  assert.equal(p.warm, 1);
  assert.match(
    describeMemoryPlan(p),
    /^Memory: planned for 512 MB \(MEMORY_MB\), budget 399 MB: up to 2 scan threads/,
  );
});

Deno.test("[memory plan] more memory, more and larger threads, up to 4 of 192 MB; settings win", () => {
  const gb = memoryPlan({}, { mb: 1024, source: "machine" });
  assert.equal(gb.threads, 4);
  assert.ok(planned(gb) <= gb.budgetMb);
  const big = memoryPlan({}, { mb: 24_000, source: "machine" });
  assert.deepEqual([big.threads, big.heapMb, big.youngMb], [4, 192, 12]);
  const container = memoryPlan({}, { mb: 512, source: "container limit" });
  assert.equal(container.threads, 2);
  assert.match(describeMemoryPlan(container), /this container's limit/);
  // Too little for two: one thread, never none.
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
  assert.equal(c.isolation.threads, 2);
  assert.equal(c.workerConcurrency, 2, "as many scans at once as threads");
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
