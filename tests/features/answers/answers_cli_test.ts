/**
 * `deno task answers`: the operator's own run from the command line, with the instance's settings
 * and KV; the estimate alone calls no vendor; over the budget it stops with nothing spent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { main } from "../../../lib/app/answers_cli.ts";
import { startReplay } from "../../helpers/answers_replay.ts";
import { startMutableSite } from "../../helpers/watch_env.ts";

async function cli(args: string[], extra: Record<string, string> = {}) {
  const site = await startMutableSite("good.test");
  const replay = startReplay();
  const dir = await Deno.makeTempDir();
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await main(args, {
      KV_PATH: `${dir}/kv.sqlite3`,
      SCAN_RESOLVE: `good.test=127.0.0.1:${site.port}`,
      ANSWERS_RESOLVE: replay.resolve,
      PERPLEXITY_API_KEY: "pplx-operator-cli",
      ANSWERS_SAMPLES: "3",
      ANSWERS_CANARY: "0",
      ...extra,
    }, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join("\n"), err: err.join("\n"), requests: replay.requests.length };
  } finally {
    await replay.close();
    await site.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("answers cli - --estimate prints the plan and calls no vendor", async () => {
  const r = await cli(["good.test", "--estimate"]);
  assertEquals(r.code, 0);
  assert(r.out.includes("1. What is Good Coffee Roasters?"));
  assert(/Estimated cost of a run: 6 calls, about \$0\.0421/.test(r.out));
  assert(r.out.includes("ChatGPT search (OpenAI): not configured"));
  assertEquals(r.requests, 0);
});

Deno.test("answers cli - a run prints each provider's k of N; JSON holds the answers", async () => {
  const r = await cli(["good.test", "--json"]);
  assertEquals(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  const p = json.run.providers.find((x: { id: string }) => x.id === "perplexity");
  assertEquals([p.status, p.overall.cited.n, p.overall.competitorOnly.k], ["done", 6, 6]);
  assertEquals(json.answers.length, 6);
  assertEquals(r.requests, 6);
  const text = await cli(["good.test"]);
  assert(/Perplexity \(Sonar\): cited 0 of 6 \(0-39%\)/.test(text.out), text.out);
});

Deno.test("answers cli - over the day's budget: refused, nothing spent", async () => {
  const r = await cli(["good.test"], { ANSWERS_GLOBAL_CALLS_PER_DAY: "3" });
  assertEquals(r.code, 1);
  assert(/Nothing was spent/.test(r.err));
  assertEquals(r.requests, 0);
});
