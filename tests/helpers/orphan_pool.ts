/**
 * A child program for tests/process_pool_test.ts: starts a pool of one worker process, hands it a
 * job that never returns (tests/fixtures/greedy_jobs.ts "spin"), prints the worker's process id
 * once the job runs, and waits. The test then kills this program with SIGKILL (a server that died)
 * and sees whether the spinning worker ends by itself (lib/kit/isolate/orphan_watch.ts).
 */
import { startWorkerProcesses } from "../../lib/kit/isolate/process_pool.ts";
import { denoForWorkers } from "../../lib/kit/isolate/worker_command.ts";

const fixtures = new URL("../fixtures/", import.meta.url);
const jobs = new URL("greedy_jobs.ts", fixtures).href;
const pool = startWorkerProcesses({
  deno: denoForWorkers()!,
  heapMb: 32,
  timeoutMs: 600_000,
  maxWorkers: 1,
  warm: 1,
  jobs: { pid: jobs, spin: jobs },
  read: [new URL(".", fixtures).pathname],
});
const { pid } = await pool.runJob({ kind: "pid" }, 30_000) as { pid: number };
pool.runJob({ kind: "spin" }, 600_000).catch(() => {});
// The job is sent; give it a moment to start spinning before saying so.
await new Promise((r) => setTimeout(r, 500));
console.log(JSON.stringify({ worker: pid }));
await new Promise(() => {});
