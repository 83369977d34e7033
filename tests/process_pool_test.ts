/**
 * Worker processes (lib/kit/isolate/process_pool.ts): untrusted work runs where it can be stopped for
 * certain. The real worker process (lib/kit/isolate/worker_process.ts) runs stand-in jobs and a
 * stand-in scanner (tests/fixtures/greedy_jobs.ts, greedy_scanner.ts) chosen to misbehave: code
 * that never returns is killed at its time limit and its process is gone, V8 ends a worker at its
 * heap limit, a crash is a crash, and after each the slot is back and the next work is served. A
 * worker whose server died ends itself; a worker may do only what its work needs and is sent no
 * secret. Nothing here measures time: each assertion waits for an event (an answer, a process
 * gone), with a generous bound only so that a failure ends.
 */
import assert from "node:assert/strict";
import { startWorkerProcesses } from "../lib/kit/isolate/process_pool.ts";
import { denoForWorkers, workerCommand } from "../lib/kit/isolate/worker_command.ts";
import { ScanIsolationError, TOO_COMPLEX } from "../lib/kit/isolate/runner.ts";
import { workerConfig } from "../lib/kit/isolate/worker_config.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import type { ScanStep } from "../lib/service.ts";
import { SCAN_THREAD_NICE } from "../lib/kit/isolate/protocol.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const JOBS = new URL("greedy_jobs.ts", FIXTURES).href;
const KINDS = ["echo", "pid", "spin", "oom", "throw", "exit", "probe", "wait-2000", "wait-10"];
const at = new Date("2030-01-02T03:04:05Z");
/** A variable of the test's (the server's) environment that no worker may see. */
const MARKER = "PROCESS_POOL_TEST_SECRET";
Deno.env.set(MARKER, "a secret of the server's");

/** A pool of the real worker process, loading the stand-in jobs and scanner. */
function pool(options: { maxWorkers?: number; warm?: number; idleMs?: number } = {}) {
  const killed: { work: string; cause: string; pid: number }[] = [];
  const runner = startWorkerProcesses({
    deno: denoForWorkers()!,
    heapMb: 32,
    timeoutMs: 2000,
    maxWorkers: options.maxWorkers ?? 1,
    warm: options.warm ?? 1,
    idleMs: options.idleMs,
    jobs: Object.fromEntries(KINDS.map((k) => [k, JOBS])),
    scanners: { visibility: new URL("greedy_scanner.ts", FIXTURES).href },
    read: [FIXTURES.pathname],
    onKilled: (k) => killed.push(k),
  });
  return { runner, killed };
}

const job = (runner: ReturnType<typeof pool>["runner"], kind: string, timeoutMs = 30_000) =>
  runner.runJob({ kind, text: kind } as { kind: string }, timeoutMs).then((a) => a, (e) => e);

/** True while process `pid` exists (Linux /proc). */
const alive = (pid: number) => Deno.stat(`/proc/${pid}`).then(() => true, () => false);

/** Waits until `check` holds (a failure ends after `ms`). */
async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

Deno.test("[worker processes] work that never returns is killed at its time limit: its process is gone, its slot back, the next work served", async () => {
  const { runner, killed } = pool();
  try {
    await runner.warmed();
    const first = await job(runner, "pid") as { pid: number };
    assert.equal(typeof first.pid, "number");
    // A job in `for (;;) {}`: its time limit kills it, whatever its code does.
    const spun = await job(runner, "spin", 1500);
    assert.ok(spun instanceof ScanIsolationError, String(spun));
    assert.equal(spun.kind, "time");
    assert.equal(spun.message, `${TOO_COMPLEX} (it took longer than 2 s)`);
    assert.deepEqual(killed, [{ work: "job", cause: "time", pid: first.pid, killed: 1 }]);
    assert.ok(await until(async () => !(await alive(first.pid))), "the spinning process is gone");
    // The slot is back, and nothing is lost: the next job gets a new worker.
    const next = await job(runner, "pid") as { pid: number };
    assert.notEqual(next.pid, first.pid);
    assert.deepEqual(
      { killed: runner.stats().killed, lost: runner.stats().lost, max: runner.stats().maxWorkers },
      { killed: 1, lost: 0, max: 1 },
    );
    // A scan stuck the same way ends the same way, and the next scan is served.
    const stuck = await runner.run(
      "visibility",
      normaliseTarget("http://spin.test/"),
      config(),
      () => at,
    ).then(() => null, (e) => e);
    assert.ok(stuck instanceof ScanIsolationError && stuck.kind === "time", String(stuck));
    assert.equal(killed.at(-1)?.work, "scan");
    const fine = await runner.run(
      "visibility",
      normaliseTarget("http://fine.test/"),
      config(),
      () => at,
    );
    assert.equal(fine.record.domain, "fine.test");
    assert.equal(runner.stats().lost, 0);
  } finally {
    await runner.close();
  }
});

/** The nice value of thread `tid` (Linux /proc: the 19th field of stat, counted after the name). */
async function niceOf(tid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${tid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

Deno.test("[worker processes] a worker yields the CPU to the server, and only so far: its working thread runs at nice SCAN_THREAD_NICE (5)", async () => {
  const { runner } = pool();
  try {
    const { pid } = await job(runner, "pid") as { pid: number };
    // The work runs on the worker's main thread, whose id is the process's. A process may raise its
    // nice value, never lower it: a server started niced keeps its workers at least as nice.
    const own = await niceOf(Deno.pid);
    assert.equal(
      await niceOf(pid),
      Math.max(SCAN_THREAD_NICE, own),
      "the worker lowered its priority",
    );
    // Five, not more: at 15 a worker beside four busy programs got about 2% of a core and ordinary
    // scans ran past their limits (docs/reliability.md, "Priority").
    assert.equal(SCAN_THREAD_NICE, 5);
  } finally {
    await runner.close();
  }
});

Deno.test("[worker processes] V8 ends a worker at its heap limit ('needed more than N MB'), before its time limit; a job's error is an error, a crash a crash; the pool serves on", async () => {
  const { runner, killed } = pool();
  try {
    const before = await job(runner, "pid") as { pid: number };
    // A 10-minute limit: only the heap limit can end this job while the test runs.
    const oom = await job(runner, "oom", 600_000);
    assert.ok(oom instanceof ScanIsolationError, String(oom));
    assert.equal(oom.kind, "memory", oom.message);
    assert.equal(oom.message, `${TOO_COMPLEX} (it needed more than 32 MB of memory)`);
    assert.deepEqual(killed.map((k) => k.cause), ["memory"]);
    assert.equal(await alive(before.pid), false);
    // A job that throws is answered with its error, and its worker stays.
    const thrown = await job(runner, "throw");
    assert.ok(thrown instanceof Error && !(thrown instanceof ScanIsolationError));
    assert.equal(thrown.message, "job bug");
    const same = await job(runner, "pid") as { pid: number };
    assert.equal((await job(runner, "pid") as { pid: number }).pid, same.pid);
    // A worker that exits mid-job is a crash, said with its exit code.
    const exited = await job(runner, "exit");
    assert.ok(exited instanceof ScanIsolationError, String(exited));
    assert.equal(exited.kind, "crash");
    assert.match(exited.message, /exit code 3/);
    assert.deepEqual(await job(runner, "echo"), { text: "ECHO" });
  } finally {
    await runner.close();
  }
});

Deno.test("[worker processes] a scan runs on the caller's clock with the configuration it is given, and its steps arrive before its answer", async () => {
  const { runner } = pool();
  try {
    const steps: string[] = [];
    const c = config();
    const sent = performance.now();
    const outcome = await runner.run(
      "visibility",
      normaliseTarget("http://steps.test/"),
      c,
      () => at,
      (s: ScanStep) => steps.push(s.id),
    );
    const waited = performance.now() - sent;
    assert.deepEqual(steps, ["fetching", "scoring"]);
    // The worker's clock starts at the caller's time and runs on with its own: by the time the
    // stand-in reads it, it may be ahead by what has passed since the scan was sent (a millisecond
    // ticked over in 3 scans of 40 on fresh workers, more on a loaded machine), never by more than
    // the caller waited for the answer, and never behind. A worker on its own clock is years away.
    const ahead = Date.parse(outcome.record.scannedAt) - at.getTime();
    assert.ok(
      ahead >= 0 && ahead <= Math.ceil(waited),
      `the worker's clock is the caller's: ${outcome.record.scannedAt}, ${waited} ms after ${at.toISOString()}`,
    );
    const result = outcome.record.result as unknown as { userAgent: string };
    assert.equal(result.userAgent, c.userAgent, "the configuration reaches the worker");
  } finally {
    await runner.close();
  }
});

Deno.test("[worker processes] no secret of the configuration is sent to a worker", () => {
  // Every variable the configuration reads whose name says it is a secret, set to a marker.
  const secrets: Record<string, string> = {
    PIPELINE_TOKEN: "secret-pipeline-0001",
    TURNSTILE_SECRET_KEY: "secret-turnstile-0002",
    ALTCHA_HMAC_KEY: "secret-altcha-0003",
    ADMIN_PASSWORD: "secret-admin-password-0004",
    ADMIN_PASSWORD_HASH: "$argon2id$v=19$m=19456,t=2,p=1$secret-hash-0005",
    UPSTASH_REDIS_REST_URL: "https://upstash.example",
    UPSTASH_REDIS_REST_TOKEN: "secret-upstash-0006",
    WATCH_SECRET_KEY: "secret-watch-key-0007-0123456789abcdef",
    OPENAI_API_KEY: "secret-openai-0008",
    PERPLEXITY_API_KEY: "secret-perplexity-0009",
    ANTHROPIC_API_KEY: "secret-anthropic-0010",
    GEMINI_API_KEY: "secret-gemini-0011",
  };
  const full = loadConfig(secrets);
  const sent = JSON.stringify(workerConfig(full), (_, v) => v instanceof Map ? [...v] : v);
  const kept = JSON.stringify(full, (_, v) => v instanceof Map ? [...v] : v);
  for (const [name, value] of Object.entries(secrets)) {
    if (name === "UPSTASH_REDIS_REST_URL") continue;
    assert.ok(kept.includes(value), `${name} is read by the configuration (the test's premise)`);
    assert.ok(!sent.includes(value), `${name} is not sent to workers`);
  }
});

Deno.test("[worker processes] a worker may read its code and reach the network, and nothing else: no data, no writes, no programs, no environment of the server's", async () => {
  const { runner } = pool();
  const dir = await Deno.makeTempDir();
  try {
    const data = `${dir}/kv.sqlite3`;
    await Deno.writeTextFile(data, "a store's bytes");
    const config = new URL("../deno.json", import.meta.url).pathname;
    const code = new URL("../lib/kit/isolate/frames.ts", import.meta.url).pathname;
    const seen = await runner.runJob(
      { kind: "probe", read: [data, config, code, "/etc/hostname"], write: `${dir}/w` } as {
        kind: string;
      },
      30_000,
    ) as Record<string, string>;
    assert.equal(seen[`read ${code}`], "ok", "its own code");
    for (
      const refused of [`read ${data}`, `read ${config}`, "read /etc/hostname", "write", "run"]
    ) {
      assert.equal(seen[refused], "NotCapable", `${refused}: ${seen[refused]}`);
    }
    assert.notEqual(seen.hostname, "ok", "no system information");
    assert.notEqual(seen.ffi, "ok", "no FFI");
    // Its environment holds only where Deno's cache and the temporary directory are, and what
    // Deno itself gives every child process (PATH and DENO_NODE_SHIM_ACTIVE: its `node` shim);
    // never a variable of the server's (the marker set here).
    const names = seen.env ? seen.env.split(",") : [];
    const allowed = ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "TMPDIR", "NO_COLOR", "PATH"];
    assert.ok(
      names.every((n) => allowed.includes(n) || n === "DENO_NODE_SHIM_ACTIVE"),
      seen.env,
    );
    assert.ok(!names.includes(MARKER), "the server's own variables stay with the server");
  } finally {
    await runner.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[worker processes] at most maxWorkers run and the rest wait in order; idle workers beyond the warm ones end", async () => {
  const { runner } = pool({ maxWorkers: 2, warm: 0, idleMs: 200 });
  try {
    const order: string[] = [];
    let most = 0;
    const watch = setInterval(() => most = Math.max(most, runner.stats().workers), 10);
    await Promise.all([
      job(runner, "wait-2000").then(() => order.push("a")),
      job(runner, "wait-2000").then(() => order.push("b")),
      job(runner, "wait-10").then(() => order.push("c")),
    ]);
    clearInterval(watch);
    // The third waited for one of the first two, though it takes far less time.
    assert.notEqual(order[0], "c", `order ${order}`);
    assert.ok(most <= 2, `${most} workers at once`);
    assert.ok(await until(() => runner.stats().workers === 0), "idle workers ended");
  } finally {
    await runner.close();
  }
});

Deno.test("[worker processes] a worker whose server died while it ran code that never returns ends itself", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tests/helpers/orphan_pool.ts"],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!said.includes("\n")) said += (await reader.read()).value ?? "";
  reader.releaseLock();
  const { worker } = JSON.parse(said);
  assert.equal(await alive(worker), true, "the worker runs its job");
  child.kill("SIGKILL");
  await child.status;
  await child.stdout.cancel().catch(() => {});
  assert.ok(await until(async () => !(await alive(worker))), `worker ${worker} still runs`);
});

function config() {
  return loadConfig({ PIPELINE_TOKEN: "secret-pipeline-for-the-pool-test" });
}

Deno.test("[worker processes] a worker's command: no run or write grant unless it may render; then that browser alone and its own temporary directory", () => {
  const base = { deno: "deno", heapMb: 64, youngMb: 4 };
  const plain = workerCommand({ ...base, chromium: null });
  const grants = (args: string[]) => args.filter((a) => a.startsWith("--allow-"));
  assert.deepEqual(
    grants(plain.args).map((a) => a.split("=")[0]),
    ["--allow-net", "--allow-read", "--allow-env", "--allow-sys"],
  );
  assert.ok(plain.args.includes("--allow-sys=setPriority"));
  assert.ok(plain.args.includes("--v8-flags=--max-old-space-size=64,--max-semi-space-size=2"));
  const read = plain.args.find((a) => a.startsWith("--allow-read="))!.slice(13).split(",");
  const root = new URL("../", import.meta.url).pathname;
  assert.deepEqual(read.map((p) => p.replace(root, "")), ["lib", "node_modules", "static/build"]);
  // A folder outside the program's code is named only when a module to load lives there.
  const stand = workerCommand({ ...base, chromium: null, read: [`${root}tests/fixtures`] });
  assert.ok(stand.args.includes(`--allow-read=${read.join(",")},${root}tests/fixtures`));
  const render = workerCommand({ ...base, chromium: "/usr/bin/chromium", tempDir: "/tmp/w1" });
  assert.ok(render.args.includes("--allow-run=/usr/bin/chromium"));
  assert.ok(render.args.includes("--allow-write=/tmp/w1"));
  assert.ok(render.args.includes("--allow-sys=setPriority,homedir,uid"));
  assert.equal(render.env.TMPDIR, "/tmp/w1");
});

Deno.test("[worker processes] a worker that cannot load is a crash that says why, and the operator is told", async () => {
  const failed: { pid: number; error: string }[] = [];
  const runner = startWorkerProcesses({
    deno: denoForWorkers()!,
    heapMb: 32,
    timeoutMs: 2000,
    maxWorkers: 1,
    warm: 1,
    jobs: { echo: new URL("no_such_job_module.ts", FIXTURES).href },
    read: [FIXTURES.pathname],
    onStartFailed: (f) => failed.push(f),
  });
  try {
    const error = await runner.runJob({ kind: "echo" }, 10_000).then(() => null, (e) => e);
    assert.ok(error instanceof ScanIsolationError, String(error));
    assert.equal(error.kind, "crash");
    assert.match(error.message, /no_such_job_module/);
    assert.ok(failed.length >= 1 && /no_such_job_module/.test(failed[0].error), String(failed));
  } finally {
    await runner.close();
  }
});
