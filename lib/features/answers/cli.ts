/**
 * `deno task answers <domain>`: the operator's own run of answer presence from the command line,
 * with the instance's settings (the vendor keys, ANSWERS_*) and its KV (KV_PATH: the same
 * questions, runs and budgets as the server; a local KV file cannot be shared with a running
 * server, then use the API with PIPELINE_TOKEN instead).
 *
 *   --estimate   print the plan (questions, providers, estimated cost, calls left) and stop
 *   --json       print JSON instead of text
 *
 * Exit codes: 0 done, 1 refused (over budget, nothing configured, a bad domain), 2 bad settings.
 *
 * The entry point is lib/app/answers_cli.ts: it composes answer presence of the configured
 * service as the server does (its registry, the watch list, the instance's secret box).
 */
import { parseArgs } from "node:util";
import { type Config, ConfigError, loadConfig } from "../../kit/config.ts";
import { HttpError } from "../../kit/errors.ts";
import { openKv } from "../../kit/storage/kv_open.ts";
import type { AnswersDeps } from "./context.ts";
import { closeAnswers } from "./service.ts";
import { planRun } from "./plan.ts";
import { startRun } from "./run.ts";
import { planText, runText } from "./summary.ts";
import { answersView, planView, runView } from "./view.ts";

const USAGE = `Usage: deno task answers <domain> [--estimate] [--json]

Asks the configured AI assistants (OPENAI_API_KEY, PERPLEXITY_API_KEY, ANTHROPIC_API_KEY,
GEMINI_API_KEY) the site's questions, ANSWERS_SAMPLES times each, and prints how often each named
and cited the site. It costs money on the vendors' side: --estimate prints the estimate only.`;

/** Where the CLI writes. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Builds answer presence of the configured service over an open KV (the app's part). */
export type ComposeAnswers = (config: Config, kv: Deno.Kv) => AnswersDeps;

/** Runs the CLI with answer presence as `compose` builds it; returns the exit code. */
export async function answersCli(
  compose: ComposeAnswers,
  args: string[],
  env?: Record<string, string | undefined>,
  io: CliIo = { out: (t) => console.log(t), err: (t) => console.error(t) },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        estimate: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    io.err(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(e.message);
    return 2;
  }
  const opened = await openKv(config).catch((e: Error) => e);
  if (opened instanceof Error) {
    io.err(
      `${opened.message}\nWith a server running, use POST /api/answers/<domain>/runs with PIPELINE_TOKEN.`,
    );
    return 2;
  }
  const { kv } = opened;
  const deps = compose(config, kv);
  const operator = { kind: "operator" as const };
  const input = parsed.positionals[0];
  const print = (text: string, json: unknown) =>
    io.out(parsed.values.json ? JSON.stringify(json, null, 2) : text);
  try {
    if (parsed.values.estimate) {
      const plan = await planView(deps, await planRun(deps, operator, input));
      print(planText(plan), { plan });
      return 0;
    }
    const { run, done } = await startRun(deps, operator, input, "cli");
    io.err(
      `Asking ${run.estimate.calls} questions (about $${run.estimate.usd.toFixed(4)}, an ` +
        "estimate); this takes a few minutes...",
    );
    const finished = await done;
    print(runText(finished), {
      run: runView(finished),
      ...answersView(finished, await deps.answers.samples(finished.id)),
    });
    return finished.status === "done" ? 0 : 1;
  } catch (e) {
    if (!(e instanceof HttpError) || e.status >= 500) throw e;
    io.err(e.message);
    return 1;
  } finally {
    await closeAnswers(deps);
    kv.close();
    opened.close();
  }
}
