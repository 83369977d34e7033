/**
 * The start task's one grant for local rendering, `--allow-run=/usr/bin/chromium`, runs that
 * binary and nothing else: a process started with the start task's permission flags is refused
 * every other program (by path and by name), the environment variables that would load other code
 * into the one it may run (LD_PRELOAD, LD_LIBRARY_PATH), and a general run permission. The scan
 * task has the same grant and no other.
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

for (const task of ["start", "scan"] as const) {
  Deno.test(`[security/render] the ${task} task may run ${CHROMIUM} and no other program`, async () => {
    const flags = await taskFlags(task);
    const run = flags.filter((f) => f === "--allow-run" || f.startsWith("--allow-run="));
    assert.deepEqual(run, [`--allow-run=${CHROMIUM}`], "exactly one run grant, for one path");
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
      for (const refused of ["/bin/sh", "sh", "/usr/bin/env", Deno.execPath()]) {
        assert.equal(result[refused], "NotCapable", `${refused}: ${result[refused]}`);
      }
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
