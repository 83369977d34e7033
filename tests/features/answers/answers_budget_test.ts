/**
 * The budgets of answer presence in the server as `deno task start` starts it (its permission and
 * V8 flags, a KV file): the vendors are the loopback replay server (ANSWERS_RESOLVE) and the site
 * a loopback copy of good.test (SCAN_RESOLVE). A run over the day's budget is a 429 JSON error
 * saying which budget and that nothing was spent, and no vendor got a request; a run inside it is
 * 202 and its calls reach the vendor; no credential and a challenge token are 401.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { startLikeStartTask } from "../../helpers/start_task_server.ts";
import { startReplay } from "../../helpers/answers_replay.ts";
import { startMutableSite } from "../../helpers/watch_env.ts";

const PIPELINE = "pipeline-token-for-answers-budget-0123456789";

async function withServer(
  globalCallsPerDay: number,
  fn: (base: string, vendorRequests: () => number) => Promise<void>,
): Promise<void> {
  const site = await startMutableSite("good.test");
  const replay = startReplay();
  const dir = await Deno.makeTempDir();
  const server = await startLikeStartTask({
    PORT: "0",
    KV_PATH: `${dir}/kv.sqlite3`,
    PIPELINE_TOKEN: PIPELINE,
    SCAN_RESOLVE: `good.test=127.0.0.1:${site.port}`,
    ANSWERS_RESOLVE: replay.resolve,
    OPENAI_API_KEY: "sk-operator-budget-test",
    ANSWERS_GLOBAL_CALLS_PER_DAY: String(globalCallsPerDay),
    // Small runs counted by hand (answers_floor_test.ts runs the defaults).
    ANSWERS_SAMPLES: "3",
    ANSWERS_CANARY: "0",
    LOG_REQUESTS: "0",
  });
  try {
    await fn(server.base, () => replay.requests.length);
    assert(!server.output().includes("sk-operator-budget-test"), "the key is never printed");
  } finally {
    await server.kill();
    await replay.close();
    await site.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const post = (base: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${base}${path}`, { method: "POST", headers, body });

Deno.test("answers budget - over the day's budget: 429 JSON, nothing spent; no credential: 401", async () => {
  // Two default questions (good.test's facts) x 3 samples = 6 calls; the instance allows 5.
  await withServer(5, async (base, vendorRequests) => {
    const anonymous = await post(base, "/api/answers/good.test/runs");
    assertEquals(anonymous.status, 401);
    assertEquals(await anonymous.json(), { error: "Unauthorized" });
    const challenge = await post(base, "/api/answers/good.test/runs", {
      "content-type": "application/json",
    }, JSON.stringify({ turnstileToken: "a-solved-challenge" }));
    assertEquals(challenge.status, 401);
    await challenge.body?.cancel();

    const over = await post(base, "/api/answers/good.test/runs", {
      authorization: `Bearer ${PIPELINE}`,
    });
    assertEquals(over.status, 429);
    assert(/^application\/json/.test(over.headers.get("content-type") ?? ""));
    assert(Number(over.headers.get("retry-after")) > 0);
    const body = await over.json();
    assertEquals(body.budget, { scope: "global", used: 0, limit: 5, needed: 6 });
    assert(/Nothing was spent/.test(body.error));
    assertEquals(vendorRequests(), 0);
    const plan = await (await fetch(`${base}/api/answers/good.test`, {
      headers: { authorization: `Bearer ${PIPELINE}` },
    })).json();
    assertEquals(plan.plan.budget.global, { used: 0, limit: 5 });
  });
});

Deno.test("answers budget - inside the budget: 202, and the run's calls reach the vendor", async () => {
  await withServer(6, async (base, vendorRequests) => {
    const started = await post(base, "/api/answers/good.test/runs", {
      authorization: `Bearer ${PIPELINE}`,
    });
    assertEquals(started.status, 202);
    const { run } = await started.json();
    let status = run.status;
    for (let i = 0; i < 200 && status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const res = await fetch(`${base}${run.links.self}?answers=0`, {
        headers: { authorization: `Bearer ${PIPELINE}` },
      });
      status = (await res.json()).run.status;
    }
    assertEquals(status, "done");
    assertEquals(vendorRequests(), 6);
  });
});

Deno.test("answers imports - in the server as the start task runs it, a CSV is read in a scan thread", async () => {
  await withServer(5, async (base) => {
    const csv = "Top pages,Clicks,Impressions,CTR,Position\nhttps://good.test/,3,40,7.5%,2\n";
    const res = await fetch(`${base}/api/answers/good.test/imports?source=gsc`, {
      method: "POST",
      headers: { authorization: `Bearer ${PIPELINE}`, "content-type": "text/csv" },
      body: csv,
    });
    assertEquals(res.status, 201, await res.clone().text());
    assertEquals((await res.json()).import.rows, 1);
    const bad = await fetch(`${base}/api/answers/good.test/imports?source=gsc`, {
      method: "POST",
      headers: { authorization: `Bearer ${PIPELINE}`, "content-type": "text/csv" },
      body: "Top pages,Clicks\nnot a url,1\n",
    });
    assertEquals(bad.status, 400);
    assert(/Line 2: "not a url" is not a page URL/.test((await bad.json()).error));
    const pages = await (await fetch(`${base}/api/answers/good.test/pages`, {
      headers: { authorization: `Bearer ${PIPELINE}` },
    })).json();
    assertEquals(pages.pages[0].sources.gsc.metrics.clicks, 3);
  });
});
