/**
 * The start task's run grants, `--allow-run=deno,/usr/bin/chromium`, run those programs and
 * nothing else: `deno` (as the PATH finds it) for the worker processes that scans and jobs run in
 * (lib/kit/isolate/worker_command.ts), the Chromium for local rendering. A process started with the
 * start task's permission flags is refused every other program (by path and by name), the
 * environment variables that would load other code into the ones it may run (LD_PRELOAD,
 * LD_LIBRARY_PATH), and a general run permission. The scan task (which scans in its own isolate)
 * has the Chromium's grant and no other.
 */
import assert from "node:assert/strict";
import { startTaskArgs } from "./helpers/start_task_server.ts";

const CHROMIUM = "/usr/bin/chromium";

/** The `--allow-*` flags of a task's `deno run`. */
async function taskFlags(task: "start" | "scan"): Promise<string[]> {
  if (task === "start") return (await startTaskArgs()).filter((a) => a.startsWith("--allow-"));
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  return (config.tasks.scan as string).split(/\s+/).filter((a) => a.startsWith("--allow-"));
}

/** What the probe tries, and how each try went ("ran", or the error's name). */
const PROBE = `
const tries = [
  ["/usr/bin/chromium", {}],
  ["deno", {}],
  ["chromium", {}],
  ["/bin/sh", {}],
  ["sh", {}],
  ["/usr/bin/env", {}],
  [Deno.execPath(), {}],
  ["/usr/bin/chromium", { LD_PRELOAD: "/nonexistent.so" }],
  ["/usr/bin/chromium", { LD_LIBRARY_PATH: "/tmp" }],
];
const out = {};
for (const [cmd, env] of tries) {
  const key = cmd + (Object.keys(env).length ? " " + Object.keys(env)[0] : "");
  try {
    await new Deno.Command(cmd, { args: ["--version"], env, stdout: "null", stderr: "null" })
      .output();
    out[key] = "ran";
  } catch (e) {
    out[key] = e.name;
  }
}
out.any = Deno.permissions.querySync({ name: "run" }).state;
console.log(JSON.stringify(out));
`;

/** What each task may run. */
const GRANTS = { start: ["deno", CHROMIUM], scan: [CHROMIUM] };

for (const task of ["start", "scan"] as const) {
  Deno.test(`[security/render] the ${task} task may run ${GRANTS[task].join(" and ")} and no other program`, async () => {
    const flags = await taskFlags(task);
    const run = flags.filter((f) => f === "--allow-run" || f.startsWith("--allow-run="));
    assert.deepEqual(run, [`--allow-run=${GRANTS[task].join(",")}`], "one run grant, by name");
    assert.ok(!flags.includes("--allow-all") && !flags.includes("-A"));
    const dir = await Deno.makeTempDir();
    try {
      const probe = `${dir}/probe.ts`;
      await Deno.writeTextFile(probe, PROBE);
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", ...flags, probe],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const result = JSON.parse(new TextDecoder().decode(out.stdout));
      for (const refused of ["/bin/sh", "sh", "/usr/bin/env"]) {
        assert.equal(result[refused], "NotCapable", `${refused}: ${result[refused]}`);
      }
      // Deno, by the name the start task grants (the Deno on the PATH), for its workers only.
      if (task === "start") assert.equal(result.deno, "ran");
      else for (const d of ["deno", Deno.execPath()]) assert.equal(result[d], "NotCapable", d);
      assert.equal(result[`${CHROMIUM} LD_PRELOAD`], "NotCapable");
      assert.equal(result[`${CHROMIUM} LD_LIBRARY_PATH`], "NotCapable");
      assert.notEqual(result.any, "granted", "no general run permission");
      // The granted binary itself is not refused (it runs where installed; NotFound elsewhere).
      assert.notEqual(result[CHROMIUM], "NotCapable");
      const installed = await Deno.stat(CHROMIUM).then(() => true, () => false);
      if (installed) assert.equal(result[CHROMIUM], "ran");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
