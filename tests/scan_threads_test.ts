import assert from "node:assert/strict";
import { Worker as NodeWorker } from "node:worker_threads";
import { loadConfig } from "../lib/kit/config.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import {
  isolationFromEnv,
  ScanIsolationError,
  startScanThreads,
  TOO_COMPLEX,
} from "../lib/kit/isolate/scan_threads.ts";
import { memoryPlan } from "../lib/kit/config_memory.ts";
import { validateResultHtml } from "../lib/features/schema/views/code_result_job.tsx";
import type { ThreadJob } from "../lib/kit/isolate/protocol.ts";

const config = loadConfig({});
const threadUrl = new URL("./fixtures/greedy_thread.ts", import.meta.url);
const at = new Date("2030-01-02T03:04:05Z");
const target = (host: string) => normaliseTarget(`http://${host}/`);
const run = (runner: ReturnType<typeof startScanThreads>, host: string) =>
  runner.run("visibility", target(host), config, () => at).then(() => null, (e) => e);

Deno.test("[scan threads] out of memory ends the scan's thread, not this one; the pool serves on", async () => {
  // A time limit no allocation loop reaches on a loaded machine: the kind says which limit ended it.
  const runner = startScanThreads({ heapMb: 32, timeoutMs: 60_000, threadUrl, warm: 1 });
  try {
    const sent = performance.now();
    const ok = await runner.run("visibility", target("fine.test"), config, () => at);
    const waited = performance.now() - sent;
    assert.equal(ok.record.status, "ok");
    // The thread's clock starts at the caller's time and runs on with its own: it may be ahead by
    // what passed since the scan was sent, never by more than the caller waited, never behind.
    const ahead = Date.parse(ok.record.scannedAt) - at.getTime();
    assert.ok(
      ahead >= 0 && ahead <= Math.ceil(waited),
      `the thread's clock is the caller's: ${ok.record.scannedAt}, ${waited} ms after ${at.toISOString()}`,
    );

    // At its heap limit the thread is ended at once, with that reason, not at its time limit.
    const oom = await run(runner, "oom.test");
    assert.ok(oom instanceof ScanIsolationError);
    assert.equal(oom.kind, "memory", oom.message);
    assert.equal(oom.message, `${TOO_COMPLEX} (it needed more than 32 MB of memory)`);

    const bug = await run(runner, "throw.test");
    assert.ok(bug instanceof Error && !(bug instanceof ScanIsolationError));
    assert.equal(bug.message, "scanner bug");

    // A scan that waits (on the network, here a timer) longer than the silence window is not
    // taken for one stopped at its heap limit.
    const slow = await runner.run("visibility", target("slow.test"), config, () => at);
    assert.equal(slow.record.domain, "slow.test");

    const after = await Promise.all(
      ["a.test", "b.test", "c.test"].map((h) =>
        runner.run("visibility", target(h), config, () => at)
      ),
    );
    assert.deepEqual(after.map((o) => o.record.domain), ["a.test", "b.test", "c.test"]);
    assert.equal(runner.stats().lost, 0, "no thread ended here is counted lost");
  } finally {
    await runner.close();
  }
});

Deno.test("[scan threads] out of time: the scan fails and this thread runs on; a thread stuck in code keeps its slot until it really ends (never, for code that never returns), and with none left work is refused saying why", async () => {
  // In a process of its own: Deno cannot stop the spinning threads (tests/helpers/spin_pool.ts).
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tests/helpers/spin_pool.ts"],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.success, true, err.slice(-2000));
  const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
  // A thread that waits past its time limit is ended and not counted lost: it kept beating.
  assert.equal(r.waited.ok, false);
  assert.equal(r.waited.kind, "time");
  assert.equal(r.afterWait, 0);
  // A thread that computes past its limit but does return is lost until then, and then gives its
  // slot back (the pool hears when its runtime is really gone).
  assert.equal(r.busy.kind, "time");
  assert.equal(r.afterBusy, 1);
  assert.equal(r.afterBusyReturned, 0, "the slot came back when the thread ended");
  assert.deepEqual(r.lost.slice(0, 2).map((l: { work: string | null }) => l.work), ["job", null]);
  // A thread that computes past its limit: its scan fails "too complex", not "out of memory"...
  assert.equal(r.spun.ok, false);
  assert.equal(r.spun.kind, "time", "a thread that computes is not taken for one out of memory");
  assert.equal(r.spun.message, `${TOO_COMPLEX} (it took longer than 7 s)`);
  // ...while this thread's timers kept firing (20 ms ticks for 7 s: about 350)...
  assert.ok(r.ticks >= 100, `only ${r.ticks} ticks of 20 ms in 7 s`);
  // ...and it is counted lost: silent since it was handed the scan, it keeps its slot.
  assert.equal(r.afterSpin, 1);
  assert.equal(r.lost[2].work, "scan");
  assert.ok(r.lost[2].silentMs > 5000, `silent ${r.lost[2].silentMs} ms`);
  assert.deepEqual({ lost: r.lost[2].lost, max: r.lost[2].maxThreads }, { lost: 1, max: 2 });
  // The other slot still scans.
  assert.deepEqual(r.fine, { ok: true, value: "fine.test" });
  // A job that never returns loses the second slot...
  assert.equal(r.spunJob.kind, "time");
  assert.equal(r.lost[3].work, "job");
  assert.equal(r.lost.length, 4);
  assert.deepEqual({ lost: r.stats.lost, max: r.stats.maxWorkers }, { lost: 2, max: 2 });
  // ...and then work is refused at once, saying the server must be restarted.
  assert.equal(r.refused.ok, false);
  assert.equal(r.refused.kind, "crash");
  assert.match(r.refused.message, /no scan thread is left: all 2 are lost .* must be restarted/);
});

Deno.test("[scan threads] starting threads does not block this thread; at most maxThreads run, the rest wait their turn", async () => {
  // The baseline, in this run: creating a thread here holds this thread while the new one's
  // runtime is set up (0.1-0.3 s measured), which is how the pool used to start its threads.
  const t0 = performance.now();
  const direct = new NodeWorker(threadUrl, { resourceLimits: { maxOldGenerationSizeMb: 32 } });
  const directMs = performance.now() - t0;
  await direct.terminate();
  const runner = startScanThreads({ heapMb: 32, timeoutMs: 20_000, threadUrl, maxThreads: 2 });
  try {
    // Let the spawner thread start (it blocks once, like the pool's start before listening).
    await runner.run("visibility", target("first.test"), config, () => at);
    const order: string[] = [];
    const hosts = ["slow.test", "slow.test", "x1.test", "x2.test"];
    const started = performance.now();
    // Each call returns at once: the threads it needs are started elsewhere.
    let heldMs = 0;
    const runs = hosts.map((h, i) => {
      const t = performance.now();
      const run = runner.run("visibility", target(h), config, () => at).then((o) => {
        order.push(`${i}:${o.record.domain}:${Math.round((performance.now() - started) / 100)}`);
      });
      heldMs = Math.max(heldMs, performance.now() - t);
      return run;
    });
    await Promise.all(runs);
    assert.ok(
      heldMs * 10 < directMs,
      `a run that starts a thread held this thread ${heldMs.toFixed(1)} ms; creating one here: ` +
        `${directMs.toFixed(0)} ms`,
    );
    // Two slow scans hold both threads for 1.5 s: the other two wait for one of them to end (with
    // a thread each they would end first).
    assert.match(order[0], /^[01]:slow\.test:/, `the waiting scans ran at once: ${order}`);
  } finally {
    await runner.close();
  }
});

Deno.test("[scan threads] idle threads beyond the warm ones end", async () => {
  const runner = startScanThreads({
    heapMb: 32,
    timeoutMs: 20_000,
    threadUrl,
    maxThreads: 3,
    warm: 1,
    idleMs: 300,
  });
  try {
    await runner.warmed();
    const runs = ["wait-6000.test", "wait-6000.test", "wait-6000.test"].map((h) =>
      runner.run("visibility", target(h), config, () => at)
    );
    // Three at once: three threads (polled: generous bounds, never a measurement).
    let until = Date.now() + 20_000;
    while (runner.stats().busy < 3 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(runner.stats().workers, 3);
    await Promise.all(runs);
    // Each idle thread beyond the warm one ends 300 ms after its scan.
    until = Date.now() + 10_000;
    while (runner.stats().workers > 1 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(runner.stats().workers, 1, "only the warm thread is left");
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(runner.stats().workers, 1, "the warm thread stays");
  } finally {
    await runner.close();
  }
});

Deno.test("[scan threads] settings: worker processes by default, threads when asked, inline on Deploy, bad values refused; the plan sizes the workers", () => {
  const memory = memoryPlan({ memoryMb: 512 }, null);
  const base = { scanTimeoutMs: 25_000, onDeploy: false, memory };
  assert.deepEqual(isolationFromEnv({}, base), {
    mode: "process",
    heapMb: memory.heapMb,
    youngMb: memory.youngMb,
    threads: memory.threads,
    warm: 1,
    idleMs: 60_000,
    timeoutMs: 35_000,
  });
  assert.equal(isolationFromEnv({}, { ...base, onDeploy: true }).mode, "inline");
  assert.equal(isolationFromEnv({ SCAN_ISOLATION: "inline" }, base).mode, "inline");
  assert.equal(isolationFromEnv({ SCAN_ISOLATION: "thread" }, base).mode, "thread");
  assert.equal(isolationFromEnv({ SCAN_ISOLATION: "Process" }, base).mode, "process");
  assert.equal(isolationFromEnv({ SCAN_THREAD_TIMEOUT_MS: "3000" }, base).timeoutMs, 3000);
  assert.throws(() => isolationFromEnv({ SCAN_ISOLATION: "fork" }, base), /SCAN_ISOLATION/);
  assert.throws(
    () => loadConfig({ SCAN_ISOLATION: "fork" }),
    /Invalid configuration: SCAN_ISOLATION/,
  );
  assert.throws(() => isolationFromEnv({ SCAN_THREAD_TIMEOUT_MS: "x" }, base), /SCAN_THREAD/);
  assert.throws(() => loadConfig({ SCAN_HEAP_MB: "8" }), /SCAN_HEAP_MB/);
  assert.equal(loadConfig({ MEMORY_MB: "512", SCAN_HEAP_MB: "64" }).isolation.heapMb, 64);
});

Deno.test("[scan threads] jobs run on the pool's threads like scans: answered, ended at the heap limit ('needed more than N MB') or the job's time limit, waiting in order for a thread", async () => {
  const runner = startScanThreads({ heapMb: 32, timeoutMs: 20_000, threadUrl, maxThreads: 1 });
  const job = (kind: string, text = "") =>
    runner.runJob({ kind, text } as { kind: string }, 4000).then((a) => a, (e) => e);
  try {
    assert.deepEqual(await job("echo", "text"), { text: "TEXT" });
    // Ended at its heap limit, never its time limit (60 s: no allocation loop gets there on a
    // loaded machine): the kind says which limit ended it.
    const oom = await runner.runJob({ kind: "oom" } as { kind: string }, 60_000).then(
      (a) => a,
      (e) => e,
    );
    assert.ok(oom instanceof ScanIsolationError);
    assert.equal(oom.kind, "memory", oom.message);
    assert.equal(oom.message, `${TOO_COMPLEX} (it needed more than 32 MB of memory)`);
    const slow = await job("wait-8000");
    assert.ok(slow instanceof ScanIsolationError);
    assert.equal(slow.kind, "time");
    assert.match(slow.message, /took longer than 4 s/);
    // One thread: a scan and jobs sent together take it in the order they came.
    const order: string[] = [];
    await Promise.all([
      runner.runJob({ kind: "wait-300" }, 4000).then(() => order.push("job 1")),
      runner.run("visibility", target("wait-100.test"), config, () => at).then(() =>
        order.push("scan")
      ),
      runner.runJob({ kind: "wait-10" }, 4000).then(() => order.push("job 2")),
    ]);
    assert.deepEqual(order, ["job 1", "scan", "job 2"]);
  } finally {
    await runner.close();
  }
});

Deno.test("[scan threads] a real code validation runs as the thread's job: answered as text; the maximal one in a small heap ends 'needed more than N MB'", async () => {
  const jobs = {
    "validate-code": new URL("../lib/features/validate/validate_job.ts", import.meta.url).href,
  };
  const validate = (heapMb: number, jsonld: string) => {
    const runner = startScanThreads({ heapMb, timeoutMs: 60_000, jobs, maxThreads: 1 });
    return runner.runJob({ kind: "validate-code", input: { jsonld } } as { kind: string }, 60_000)
      .then((a) => a, (e) => e).finally(() => runner.close());
  };
  const small = await validate(
    64,
    '{"@context":"https://schema.org","@type":"Organization","name":"A","url":"https://a.test/"}',
  ) as { status: number; json: string };
  assert.equal(small.status, 200);
  assert.equal(typeof small.json, "string", "the answer's JSON comes back as text");
  assert.deepEqual(JSON.parse(small.json).result.summary.types, ["Organization"]);
  // The /validate page's result sections are rendered in a thread too, from that text.
  const html = startScanThreads({
    heapMb: 64,
    timeoutMs: 60_000,
    maxThreads: 1,
    jobs: {
      "validate-html":
        new URL("../lib/features/schema/views/code_result_job.tsx", import.meta.url).href,
    },
  });
  try {
    const shown = await html.runJob(
      { kind: "validate-html", json: small.json } as ThreadJob,
      60_000,
    );
    assert.deepEqual(shown, { html: validateResultHtml(small.json) });
    assert.match((shown as { html: string }).html, /^<section/);
  } finally {
    await html.close();
  }
  const huge = await validate(32, `[${Array(340_000).fill("{}").join(",")}]`);
  assert.ok(huge instanceof ScanIsolationError, String(huge));
  assert.equal(huge.kind, "memory", huge.message);
  assert.match(huge.message, /needed more than 32 MB of memory/);
});
