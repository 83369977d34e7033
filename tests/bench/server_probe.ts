/**
 * What the benchmarks that start `main.ts` as a process read of it: the /healthz answer that says
 * it serves, and its resident memory (RSS) sampled while a load runs.
 */
import { startTaskArgs } from "../helpers/start_task_server.ts";

/** Resident memory of process `pid` in bytes (from /proc; 0 when it cannot be read). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) * 1024;
}

/** Polls `${base}/healthz` every 100 ms until it answers, at most `tries` times. */
export async function untilHealthy(base: string, tries: number): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      await (await fetch(`${base}/healthz`)).body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Samples the RSS of `pid` every `everyMs`: its idle value now, and the peak when stopped. */
export async function rssSampler(
  pid: number,
  everyMs: number,
): Promise<{ idle: number; stop(): number }> {
  const idle = await rssOf(pid);
  let peak = idle;
  const timer = setInterval(async () => peak = Math.max(peak, await rssOf(pid)), everyMs);
  return {
    idle,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** A server process started as `deno task start` starts it, its output going to a file. */
export interface StartTaskProcess {
  pid: number;
  /** e.g. "http://127.0.0.1:43210" */
  base: string;
  /** Everything it printed so far (stdout and stderr, from its output file). */
  output(): Promise<string>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
}

/**
 * Starts main.ts with the start task's permission and V8 flags (tests/helpers/start_task_server.ts
 * reads them from deno.json) and `env` (PORT=0 unless given), its output written to a file as a
 * service manager would keep it: a benchmark must not pay for reading every log line itself.
 */
export async function startTaskProcess(
  env: Record<string, string>,
  options: {
    extraV8Flags?: string;
    startTimeoutMs?: number;
    /** A cgroup's `cgroup.procs` file: the server runs in that cgroup (e.g. a memory limit). */
    cgroupProcs?: string;
  } = {},
): Promise<StartTaskProcess> {
  const args = await startTaskArgs();
  const extra = options.extraV8Flags;
  const withFlags = !extra
    ? args
    : args.some((a) => a.startsWith("--v8-flags="))
    ? args.map((a) => a.startsWith("--v8-flags=") ? `${a},${extra}` : a)
    : [...args.slice(0, -1), `--v8-flags=${extra}`, ...args.slice(-1)];
  return await startLogged(Deno.execPath(), withFlags, { PORT: "0", ...env }, options);
}

/**
 * Spawns `command args` in the repository's root with its output in a temporary file, and waits
 * for its "Listening on http://host:port/" line.
 */
export async function startLogged(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { startTimeoutMs?: number; cgroupProcs?: string } = {},
): Promise<StartTaskProcess> {
  const log = await Deno.makeTempFile({ prefix: "bench-server-", suffix: ".log" });
  const join = options.cgroupProcs ? `echo $$ > "${options.cgroupProcs}" && ` : "";
  const child = new Deno.Command("sh", {
    args: ["-c", `${join}exec "$@" >"${log}" 2>&1`, "sh", command, ...args],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
  }).spawn();
  let exited = false;
  const status = child.status.then((s) => (exited = true, s));
  const output = () => Deno.readTextFile(log).catch(() => "");
  const until = Date.now() + (options.startTimeoutMs ?? 60_000);
  let base = "";
  while (!base) {
    const m = (await output()).match(/Listening on (http:\/\/[^/\s]+)\//);
    if (m) base = m[1].replace("0.0.0.0", "127.0.0.1");
    else if (exited || Date.now() > until) {
      if (!exited) child.kill("SIGKILL");
      await status;
      throw new Error(`server did not start:\n${await output()}`);
    } else await new Promise((r) => setTimeout(r, 50));
  }
  return {
    pid: child.pid,
    base,
    output,
    async kill() {
      if (!exited) {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }
      await status;
      await Deno.remove(log).catch(() => {});
    },
  };
}

/** CPU seconds (user + system) process `pid` has used so far, all threads (Linux /proc). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The machine's load now: "load 1.23 / 0.98 / 0.75 (1, 5, 15 min) on N cores". */
export async function machineLoad(): Promise<string> {
  const avg = (await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?")).split(" ");
  return `load ${
    avg.slice(0, 3).join(" / ")
  } (1, 5, 15 min) on ${navigator.hardwareConcurrency} cores`;
}

/**
 * Open-loop latency at a fixed rate (tests/bench/rate_loader.ts, in a process of its own): GET
 * `url` at `rate` per second for `seconds`; {sent, ok, errors, p50, p90, p99, max} in ms.
 */
export async function rateLoad(url: string, rate: number, seconds: number) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./rate_loader.ts", import.meta.url).pathname,
      url,
      String(rate),
      String(seconds),
    ],
    stdout: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)) as {
    sent: number;
    ok: number;
    errors: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  };
}

/** Process `pid` and all its descendants (Linux /proc: each thread's `children`). */
export async function processTree(pid: number): Promise<number[]> {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const tasks = await Array.fromAsync(Deno.readDir(`/proc/${out[i]}/task`)).catch(() => []);
    for (const t of tasks) {
      const kids = await Deno.readTextFile(`/proc/${out[i]}/task/${t.name}/children`)
        .catch(() => "");
      for (const k of kids.trim().split(/\s+/)) if (k) out.push(Number(k));
    }
  }
  return out;
}

/**
 * What a process tree holds, in bytes: the sum of its processes' proportional set sizes (PSS:
 * private pages, plus each shared page divided among the processes that map it, so the Deno
 * executable's pages are counted once, not once per worker) from /proc/<pid>/smaps_rollup.
 */
export async function treePss(pid: number): Promise<number> {
  let total = 0;
  for (const p of await processTree(pid)) {
    const rollup = await Deno.readTextFile(`/proc/${p}/smaps_rollup`).catch(() => "");
    total += Number(rollup.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** Samples {@link treePss} of `pid` every `everyMs`: its idle value now, and the peak when stopped. */
export async function treeSampler(
  pid: number,
  everyMs: number,
): Promise<{ idle: number; stop(): Promise<number> }> {
  const idle = await treePss(pid);
  let peak = idle;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    peak = Math.max(peak, await treePss(pid));
    busy = false;
  }, everyMs);
  return {
    idle,
    async stop() {
      clearInterval(timer);
      peak = Math.max(peak, await treePss(pid));
      return peak;
    },
  };
}
