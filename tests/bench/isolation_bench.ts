/**
 * What issue 39's isolation costs: worker processes (SCAN_ISOLATION=process, the default) against
 * last round's scan threads (SCAN_ISOLATION=thread), measured in the same run. Ratios and figures,
 * never a timed test:
 *
 * 1. start-up: from asking for a worker to its having loaded the scanners and job modules (what a
 *    killed worker's replacement takes), and the longest this thread's event loop was held while
 *    one starts (a 5 ms ticker);
 * 2. memory per idle loaded worker: the private memory (Private_Dirty of /proc/<pid>/smaps_rollup,
 *    which is what a memory cgroup charges) of a pool with two warm workers less that with one,
 *    in child processes of their own;
 * 3. cost per scan: a real scan of a fixture site (good.test, one page) through each runner, and a
 *    round trip of 1 MiB of text (the size of the largest record) as a job;
 * 4. the 500-scan queue through the server started as `deno task start` starts it, in a 512 MB
 *    plan (tests/bench/memory_peaks.ts --only=queue, once per isolation): throughput and the peak
 *    memory of all its processes.
 *
 *   deno run -A tests/bench/isolation_bench.ts [--rounds=5] [--scans=500] [--no-queue]
 *
 * Figures go to tests/output/isolation_bench.json; BENCHMARKS.md and docs/reliability.md quote
 * them with the date and the machine's load.
 */
import { startWorkerProcesses } from "../../lib/kit/isolate/process_pool.ts";
import { startScanThreads } from "../../lib/kit/isolate/scan_threads.ts";
import { denoForWorkers } from "../../lib/kit/isolate/worker_command.ts";
import type { ScanRunner } from "../../lib/kit/isolate/runner.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";
import { JOB_KINDS, SERVICES } from "../../lib/app/server.ts";
import { startScanEnv } from "../helpers/scan_env.ts";
import { machineLoad, processTree } from "./server_probe.ts";

const arg = (name: string, fallback: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROUNDS = Number(arg("rounds", "5"));
const SCANS = arg("scans", "500");
const CHILD = arg("child", "");
const HEAP_MB = 68;
const FIXTURES = new URL("../fixtures/", import.meta.url);
const ECHO = new URL("greedy_jobs.ts", FIXTURES).href;

/** What the server gives its workers: every service's scanner, every job kind, and an echo job. */
const scanners = Object.fromEntries(Object.values(SERVICES).map((s) => [s.name, s.scanner.href]));
const jobs = {
  ...Object.fromEntries(JOB_KINDS.map((k) => [k.kind, k.module.href])),
  echo: ECHO,
};

function pool(kind: "process" | "thread", warm: number): ScanRunner {
  return kind === "process"
    ? startWorkerProcesses({
      deno: denoForWorkers()!,
      heapMb: HEAP_MB,
      timeoutMs: 60_000,
      maxWorkers: Math.max(1, warm),
      warm,
      scanners,
      jobs,
      read: [FIXTURES.pathname],
    })
    : startScanThreads({
      heapMb: HEAP_MB,
      timeoutMs: 60_000,
      maxThreads: Math.max(1, warm),
      warm,
      scanners,
      jobs,
    });
}

/** Private memory (kB) of this process and its descendants. */
async function privateKb(): Promise<number> {
  let total = 0;
  for (const pid of await processTree(Deno.pid)) {
    const rollup = await Deno.readTextFile(`/proc/${pid}/smaps_rollup`).catch(() => "");
    total += Number(rollup.match(/^Private_Dirty:\s+(\d+)/m)?.[1] ?? 0) +
      Number(rollup.match(/^Private_Clean:\s+(\d+)/m)?.[1] ?? 0);
  }
  return total;
}

// A child: a pool of `warm` idle loaded workers; prints the private memory of its process tree.
if (CHILD) {
  const [kind, warm] = CHILD.split(":");
  const runner = pool(kind as "process" | "thread", Number(warm));
  await runner.warmed();
  // Each worker answers once (loaded and settled), then the memory is read after a pause.
  await Promise.all(
    Array.from({ length: Number(warm) }, () => runner.runJob({ kind: "echo" }, 30_000)),
  );
  await new Promise((r) => setTimeout(r, 1500));
  console.log(JSON.stringify({ privateKb: await privateKb() }));
  await runner.close();
  Deno.exit(0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  loadBefore: await machineLoad(),
};
console.log(`isolation bench: ${results.loadBefore}`);

// ------------------------------------------------------------------ 1. start-up
async function startUp(kind: "process" | "thread"): Promise<{ ms: number; heldMs: number }> {
  let last = performance.now();
  let held = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  const runner = pool(kind, 1);
  await runner.warmed();
  const ms = performance.now() - t0;
  clearInterval(ticker);
  await runner.close();
  return { ms, heldMs: held };
}
const starts: Record<string, { ms: number[]; heldMs: number[] }> = {
  process: { ms: [], heldMs: [] },
  thread: { ms: [], heldMs: [] },
};
for (let i = 0; i < ROUNDS; i++) {
  for (const kind of ["process", "thread"] as const) {
    const s = await startUp(kind);
    starts[kind].ms.push(s.ms);
    starts[kind].heldMs.push(s.heldMs);
  }
}
for (const kind of ["process", "thread"] as const) {
  console.log(
    `start-up, ${kind}: ${Math.round(median(starts[kind].ms))} ms to loaded (median of ` +
      `${ROUNDS}); this thread held at most ${median(starts[kind].heldMs).toFixed(1)} ms`,
  );
}
console.log(
  `  ratio process/thread: ${(median(starts.process.ms) / median(starts.thread.ms)).toFixed(2)}`,
);
results.startUp = Object.fromEntries(
  Object.entries(starts).map(([k, v]) => [k, {
    medianMs: Math.round(median(v.ms)),
    heldMs: Number(median(v.heldMs).toFixed(1)),
    runs: v.ms.map(Math.round),
  }]),
);

// ------------------------------------------------------------------ 2. memory per worker
async function childPrivate(kind: string, warm: number): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, `--child=${kind}:${warm}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!).privateKb;
}
const perWorker: Record<string, number[]> = { process: [], thread: [] };
for (let i = 0; i < Math.min(ROUNDS, 3); i++) {
  for (const kind of ["process", "thread"]) {
    const one = await childPrivate(kind, 1);
    const two = await childPrivate(kind, 2);
    perWorker[kind].push((two - one) / 1024);
  }
}
for (const kind of ["process", "thread"]) {
  console.log(
    `memory per idle loaded worker, ${kind}: ${median(perWorker[kind]).toFixed(1)} MB private ` +
      `(runs ${perWorker[kind].map((m) => m.toFixed(1)).join(", ")})`,
  );
}
results.memoryPerWorkerMb = Object.fromEntries(
  Object.entries(perWorker).map(([k, v]) => [k, Number(median(v).toFixed(1))]),
);

// ------------------------------------------------------------------ 3. per scan, per MiB
const env = await startScanEnv();
const config = { ...env.config, audit: { ...env.config.audit, pages: 1 } };
const perScan: Record<string, number[]> = { process: [], thread: [] };
const perMiB: Record<string, number[]> = { process: [], thread: [] };
const runners = { process: pool("process", 1), thread: pool("thread", 1) };
await Promise.all(Object.values(runners).map((r) => r.warmed()));
const text = "x".repeat(1024 * 1024);
for (let i = 0; i < 2 * ROUNDS; i++) {
  for (const kind of ["process", "thread"] as const) {
    const t0 = performance.now();
    await runners[kind].run(
      "visibility",
      normaliseTarget("http://good.test/"),
      config,
      () => new Date(),
    );
    if (i > 0) perScan[kind].push(performance.now() - t0);
    const t1 = performance.now();
    await runners[kind].runJob({ kind: "echo", text } as { kind: string }, 30_000);
    if (i > 0) perMiB[kind].push(performance.now() - t1);
  }
}
await Promise.all(Object.values(runners).map((r) => r.close()));
await env.close();
for (const kind of ["process", "thread"]) {
  console.log(
    `one-page scan of good.test, ${kind}: ${Math.round(median(perScan[kind]))} ms (median); ` +
      `1 MiB of text there and back as a job: ${Math.round(median(perMiB[kind]))} ms`,
  );
}
console.log(
  `  ratio process/thread: scan ${
    (median(perScan.process) / median(perScan.thread)).toFixed(2)
  }, 1 MiB ${(median(perMiB.process) / median(perMiB.thread)).toFixed(2)}`,
);
results.perScanMs = Object.fromEntries(
  Object.entries(perScan).map(([k, v]) => [k, Math.round(median(v))]),
);
results.perMiBMs = Object.fromEntries(
  Object.entries(perMiB).map(([k, v]) => [k, Math.round(median(v))]),
);

// ------------------------------------------------------------------ 4. the 500-scan queue
if (!Deno.args.includes("--no-queue")) {
  const queue: Record<string, unknown> = {};
  for (const isolation of ["process", "thread"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./memory_peaks.ts", import.meta.url).pathname,
        "--only=queue",
        `--scans=${SCANS}`,
        `--server-env=SCAN_ISOLATION=${isolation}`,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const printed = new TextDecoder().decode(out.stdout);
    console.log(`queue, SCAN_ISOLATION=${isolation}:\n${printed.trim().replace(/^/gm, "  ")}`);
    const json = JSON.parse(
      await Deno.readTextFile(new URL("../output/memory_peaks.json", import.meta.url)),
    );
    queue[isolation] = { ...json.queue, how: json.how };
  }
  results.queue = queue;
}

results.loadAfter = await machineLoad();
console.log(`${results.loadAfter} at the end`);
await Deno.mkdir(new URL("../output/", import.meta.url), { recursive: true });
await Deno.writeTextFile(
  new URL("../output/isolation_bench.json", import.meta.url),
  JSON.stringify(results, null, 2),
);
