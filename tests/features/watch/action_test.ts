/**
 * The GitHub Action (action.yml), run here the way a runner runs a composite action: each `run`
 * step through `bash --noprofile --norc -eo pipefail`, in a workspace folder, with the variables
 * GitHub sets (GITHUB_ACTION_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY per step,
 * GITHUB_WORKSPACE) and the `${{ inputs.* }}` / `${{ steps.*.outputs.* }}` expressions of the
 * steps' `env` and `if` evaluated. The job's own environment points the scan at the fixture sites
 * (SCAN_RESOLVE), as a workflow's `env:` would. What needs GitHub is not run: the two `uses` steps
 * (denoland/setup-deno: Deno is already here; github/codeql-action/upload-sarif: checked to be
 * called, with a SARIF file that validates against the SARIF 2.1.0 schema).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { startScanEnv } from "../../helpers/scan_env.ts";

const ROOT = join(import.meta.dirname!, "..", "..", "..");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const validateSarif = addFormats(new Ajv2020({ strict: false })).compile(
  JSON.parse(await Deno.readTextFile(join(ROOT, "tests/fixtures/sarif/sarif-2.1.0.json"))),
);

interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(await Deno.readTextFile(join(ROOT, "action.yml"))) as Action;

/** A run of the action: each step's outcome, the outputs, the summary, and the steps not run. */
interface ActionRun {
  workspace: string;
  outputs: Record<string, Record<string, string>>;
  exit: Record<string, number>;
  summary: string;
  /** `uses` steps that would run, with their `with` evaluated. */
  uses: { uses: string; with: Record<string, string> }[];
  actionOutputs: Record<string, string>;
  log: string;
}

/** Evaluates the `${{ ... }}` expressions the action uses. */
function expand(text: string, ctx: Ctx): string {
  return text.replace(
    /\$\{\{\s*([^}]+?)\s*\}\}/g,
    (_m, expr: string) => String(evaluate(expr, ctx)),
  );
}

interface Ctx {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
}

/** The expression language subset of action.yml: always(), ==, &&, inputs.*, steps.*.outputs.*. */
function evaluate(expr: string, ctx: Ctx): string | boolean {
  const parts = expr.split("&&").map((p) => p.trim());
  if (parts.length > 1) return parts.every((p) => evaluate(p, ctx) === true);
  if (expr === "always()") return true;
  const eq = expr.match(/^(.+?)\s*==\s*'([^']*)'$/);
  if (eq) return value(eq[1].trim(), ctx) === eq[2];
  return value(expr, ctx);
}

function value(ref: string, ctx: Ctx): string {
  let m = ref.match(/^inputs\.([\w-]+)$/);
  if (m) return ctx.inputs[m[1]] ?? "";
  m = ref.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/);
  if (m) return ctx.steps[m[1]]?.[m[2]] ?? "";
  throw new Error(`an expression this test does not know: ${ref}`);
}

/** Runs the action with these inputs and this job environment. */
async function runAction(
  inputs: Record<string, string>,
  jobEnv: Record<string, string>,
): Promise<ActionRun> {
  const workspace = await Deno.makeTempDir({ prefix: "action-ws-" });
  const temp = await Deno.makeTempDir({ prefix: "action-tmp-" });
  const ctx: Ctx = {
    inputs: Object.fromEntries(
      Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? ""]),
    ),
    steps: {},
  };
  for (const [k, v] of Object.entries(action.inputs)) {
    if (v.required) assert.ok(inputs[k], `input ${k} is required`);
  }
  const run: ActionRun = {
    workspace,
    outputs: {},
    exit: {},
    summary: "",
    uses: [],
    actionOutputs: {},
    log: "",
  };
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    // A step without `if` runs only while every step before succeeded (GitHub's success()).
    const wanted = step.if ? evaluate(step.if, ctx) === true : !failed;
    if (!wanted) continue;
    if (step.uses) {
      run.uses.push({
        uses: step.uses,
        with: Object.fromEntries(
          Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, ctx)]),
        ),
      });
      continue;
    }
    assert.equal(step.shell, "bash", `${step.name}: composite run steps must say their shell`);
    const outputFile = join(temp, `output_${i}`);
    const summaryFile = join(temp, `summary_${i}`);
    await Deno.writeTextFile(outputFile, "");
    await Deno.writeTextFile(summaryFile, "");
    const script = join(temp, `step_${i}.sh`);
    await Deno.writeTextFile(script, step.run!);
    const env = {
      PATH: `${join(Deno.execPath(), "..")}:/usr/bin:/bin`,
      HOME: Deno.env.get("HOME") ?? temp,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? temp, ".cache", "deno"),
      NO_COLOR: "1",
      ...jobEnv,
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: temp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, ctx)])),
    };
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-eo", "pipefail", script],
      cwd: workspace,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    run.log += `--- ${step.name}\n${dec.decode(out.stdout)}${dec.decode(out.stderr)}`;
    run.exit[step.id ?? step.name] = out.code;
    if (out.code !== 0) failed = true;
    const outputs = Object.fromEntries(
      (await Deno.readTextFile(outputFile)).split("\n").filter(Boolean).map((l) => {
        const at = l.indexOf("=");
        return [l.slice(0, at), l.slice(at + 1)];
      }),
    );
    if (step.id) ctx.steps[step.id] = outputs;
    run.outputs[step.id ?? step.name] = outputs;
    run.summary += await Deno.readTextFile(summaryFile);
  }
  run.actionOutputs = Object.fromEntries(
    Object.entries(action.outputs).map(([k, v]) => [k, expand(v.value, ctx)]),
  );
  await Deno.remove(temp, { recursive: true });
  return run;
}

Deno.test({
  name: "action - a composite action whose steps take inputs through the environment only",
  fn: () => {
    assert.equal(action.runs.using, "composite");
    for (const step of action.runs.steps) {
      // Inputs pasted into a script would let a URL with `"; rm -rf` run code: env only.
      if (step.run) assert.ok(!/\$\{\{/.test(step.run), `${step.name}: no expression in run`);
    }
    assert.deepEqual(action.runs.steps.filter((s) => s.uses).map((s) => s.uses), [
      "denoland/setup-deno@v2",
      "github/codeql-action/upload-sarif@v4",
    ]);
  },
});

Deno.test({
  name:
    "action - its shell steps scan a fixture site: pass, fail under a score, fail on a regression against a baseline",
  sanitizeResources: false,
  fn: async (t) => {
    const scanEnv = await startScanEnv();
    const workspaces: string[] = [];
    try {
      let baseline = "";
      await t.step("good.test passes a 50 minimum: summary, SARIF, outputs", async () => {
        const r = await runAction({ url: "good.test", "fail-under": "50" }, scanEnv.env);
        workspaces.push(r.workspace);
        assert.equal(r.exit.scan, 0, r.log);
        assert.equal(r.outputs.scan["exit-code"], "0");
        assert.equal(r.exit.Verdict, 0, r.log);
        assert.match(
          r.summary,
          /^## AI visibility of good\.test: \d+\/100 \([A-F]\)\n\n\*\*Passed\.\*\*/,
        );
        assert.match(r.summary, /\| Pillar \| Score \|/);
        const score = Number(r.actionOutputs.score);
        assert.ok(score >= 50 && score <= 100, r.actionOutputs.score);
        assert.match(r.actionOutputs.grade, /^[A-F]$/);
        assert.equal(r.actionOutputs.regression, "false");
        const upload = r.uses.find((u) => u.uses.startsWith("github/codeql-action/upload-sarif"));
        assert.ok(upload, "the SARIF would be uploaded");
        assert.deepEqual(upload.with, {
          sarif_file: "ai-visibility.sarif",
          category: "ai-visibility",
        });
        const sarif = JSON.parse(
          await Deno.readTextFile(join(r.workspace, upload.with.sarif_file)),
        );
        assert.ok(validateSarif(sarif), JSON.stringify(validateSarif.errors?.slice(0, 3)));
        baseline = join(r.workspace, "ai-visibility.json");
      });

      await t.step(
        "a weak page under a minimum of 90 fails the job, after the summary",
        async () => {
          const r = await runAction({
            url: "no-llms.test",
            "fail-under": "90",
            "upload-sarif": "false",
          }, scanEnv.env);
          workspaces.push(r.workspace);
          assert.equal(r.outputs.scan["exit-code"], "1", r.log);
          assert.equal(r.exit.scan, 0, "the scan step itself never fails the job");
          assert.equal(r.exit.Verdict, 1);
          assert.match(r.log, /::error title=AI visibility::The site failed the gate/);
          assert.match(r.summary, /\*\*Failed:\*\* the score \d+ is below 90\./);
          assert.match(r.summary, /### What to fix first\n\n1\. \*\*/);
          assert.deepEqual(
            r.uses.map((u) => u.uses),
            ["denoland/setup-deno@v2"],
            "upload-sarif: false",
          );
        },
      );

      await t.step(
        "a preview whose robots.txt blocks AI search fails against the production baseline",
        async () => {
          const r = await runAction({ url: "blocks-search.test", baseline }, scanEnv.env);
          workspaces.push(r.workspace);
          assert.equal(r.outputs.scan["exit-code"], "1", r.log);
          assert.equal(r.exit.Verdict, 1);
          assert.equal(r.actionOutputs.regression, "true");
          assert.match(r.summary, /\*\*Failed:\*\* a regression against the baseline/);
          assert.match(r.summary, /### Against the baseline/);
          assert.match(r.summary, /\*\*Regression:\*\* robots\.txt now blocks [^\n]*OAI-SearchBot/);
          assert.match(r.log, /Regression: .*robots\.txt now blocks/);
        },
      );

      await t.step(
        "a URL that cannot be scanned: exit 2, a summary that says so, no upload",
        async () => {
          const r = await runAction({ url: "ftp://good.test/" }, scanEnv.env);
          workspaces.push(r.workspace);
          assert.equal(r.outputs.scan["exit-code"], "2");
          assert.equal(r.outputs.scan["sarif-written"], "false");
          assert.equal(r.exit.Verdict, 2);
          assert.match(r.summary, /the scan produced no report \(exit status 2\)/);
          assert.ok(!r.uses.some((u) => u.uses.includes("upload-sarif")));
        },
      );
    } finally {
      await scanEnv.close();
      for (const w of workspaces) await Deno.remove(w, { recursive: true }).catch(() => {});
    }
  },
});
