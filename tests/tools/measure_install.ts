/**
 * Measures what `deno task start` costs a fresh machine: it clones a commit of this repository
 * into a temporary directory, gives Deno an empty cache (`DENO_DIR`), runs the start task there and
 * reports the seconds until `/` first answers 200, the packages installed (`du -sk node_modules`,
 * their count) and the size of the Deno cache. With `--tests` it then installs the test and
 * benchmark tools as `.ci/run` does (`deno task install:tests`) and reports the same sizes again.
 * It needs the npm registry (that is what it measures); nothing else leaves the machine.
 *
 * ```sh
 * deno run -A tests/tools/measure_install.ts                 # HEAD of this checkout
 * deno run -A tests/tools/measure_install.ts --baseline=1a66df6 --tests
 * ```
 *
 * With `--baseline=<commit>` it measures that commit first, the same way, and prints the ratios.
 *
 * The figures in docs/running.md ("What the start task installs") come from this script.
 */
import { parseArgs } from "node:util";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Disk use of a path in KiB, as `du -sk` counts it. */
async function duKiB(path: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sk", path], stdout: "piped" }).output();
  return Number(new TextDecoder().decode(out.stdout).split(/\s/)[0]);
}

/** The number of package folders Deno placed under node_modules/.deno. */
async function packageCount(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(`${dir}/node_modules/.deno`)) {
    if (e.isDirectory && e.name !== "node_modules") n++;
  }
  return n;
}

const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;

async function sizes(dir: string, denoDir: string): Promise<string> {
  return `node_modules ${mb(await duKiB(`${dir}/node_modules`))} (${await packageCount(dir)} ` +
    `packages), Deno cache ${mb(await duKiB(denoDir))}`;
}

/**
 * Starts the start task in `dir` in a process group of its own, and resolves with the seconds from
 * the spawn to the first 200 of `/`; the group is ended before it returns.
 */
async function timeToFirstPage(dir: string, env: Record<string, string>): Promise<number> {
  const log = `${dir}/start.log`;
  const started = performance.now();
  // setsid: the task starts a build and then the server; ending the group ends all of them.
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", `exec "$0" task start >"${log}" 2>&1`, Deno.execPath()],
    cwd: dir,
    env,
    stdin: "null",
  }).spawn();
  try {
    for (;;) {
      const text = await Deno.readTextFile(log).catch(() => "");
      const url = text.match(/Listening on (http:\/\/\S+)/)?.[1];
      if (url) {
        const res = await fetch(url).catch(() => null);
        await res?.body?.cancel();
        if (res?.status === 200) return (performance.now() - started) / 1000;
      }
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 200)),
      ]);
      if (exited) throw new Error(`the start task ended before serving:\n${text.slice(-2000)}`);
    }
  } finally {
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
}

/** The seconds to the first page and the packages' disk use (KiB) of `ref` on a fresh clone. */
async function measure(ref: string, tests: boolean): Promise<{ seconds: number; kib: number }> {
  const dir = await Deno.makeTempDir({ prefix: "measure_install_" });
  const denoDir = await Deno.makeTempDir({ prefix: "measure_install_deno_dir_" });
  const git = async (...a: string[]) => {
    const out = await new Deno.Command("git", { args: a, stderr: "piped" }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  };
  await git("clone", "--quiet", "--no-checkout", ROOT, dir);
  await git("-C", dir, "checkout", "--quiet", ref);
  const env = { DENO_DIR: denoDir, PORT: "0", KV_PATH: `${dir}/kv.sqlite3`, NO_COLOR: "1" };
  try {
    const seconds = await timeToFirstPage(dir, env);
    const kib = await duKiB(`${dir}/node_modules`);
    console.log(`${ref}: deno task start served / with 200 after ${seconds.toFixed(1)} s`);
    console.log(`${ref}: after the start task: ${await sizes(dir, denoDir)}`);
    if (tests) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "install:tests"],
        cwd: dir,
        env,
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
      console.log(`${ref}: after deno task install:tests: ${await sizes(dir, denoDir)}`);
    }
    return { seconds, kib };
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(denoDir, { recursive: true });
  }
}

/** The load average now, as the machine reports it. */
async function load(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg").catch(() => "")).split(" ").slice(0, 3).join(
    " ",
  );
}

if (import.meta.main) {
  const args = parseArgs({
    args: Deno.args,
    options: {
      ref: { type: "string", default: "HEAD" },
      baseline: { type: "string" },
      tests: { type: "boolean" },
    },
  });
  const ref = args.values.ref!;
  const baseline = args.values.baseline;
  console.log(`load average before: ${await load()}`);
  // The baseline first, then the commit measured, one after the other on the same machine.
  const base = baseline ? await measure(baseline, false) : null;
  const now = await measure(ref, args.values.tests ?? false);
  console.log(`load average after: ${await load()}`);
  if (base) {
    console.log(
      `${ref} against ${baseline}: first page in ${(now.seconds / base.seconds).toFixed(2)}x the ` +
        `time, packages ${(now.kib / base.kib).toFixed(2)}x the size`,
    );
  }
}
