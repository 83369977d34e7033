/**
 * Answer presence through the API, end to end: the vendors are the loopback replay server (reached
 * through ANSWERS_RESOLVE), the watched site is a loopback copy of the good.test fixture whose
 * robots.txt blocks PerplexityBot, and its scan is real. Who may run it (never anonymous, only a
 * watched site for an account), the estimate before a run, a run's results beside the crawler
 * verdicts, the per-account and global budgets (a run over budget is a 429 with nothing spent),
 * calls not made given back, a user's own key sealed and never shown, and a second run's changes.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { PIPELINE, type TestEnv } from "../../helpers/app_env.ts";
import { answersOf, idle } from "../../../lib/features/answers/context.ts";
import {
  call,
  DOMAIN,
  OPERATOR_KEYS,
  run,
  scanned,
  USER_GEMINI_KEY,
  world,
} from "../../helpers/answers_env.ts";

/** The fixtures' answers cite good.test: the watched copy is served under that name. */
async function dumpKv(env: TestEnv): Promise<string> {
  const parts: string[] = [];
  for await (const e of env.kv.list({ prefix: [] })) parts.push(JSON.stringify([e.key, e.value]));
  return parts.join("\n");
}

Deno.test("answers api - never anonymous; an account only for the sites it watches; nothing is called", async () => {
  const w = await world();
  try {
    for (
      const [method, path] of [["GET", `/api/answers/${DOMAIN}`], [
        "POST",
        `/api/answers/${DOMAIN}/runs`,
      ]]
    ) {
      const anon = await call(w.env, null, method, path);
      assertEquals(anon.status, 401);
      assertEquals((await anon.json()).error, "Unauthorized");
    }
    const { key: loose } = await w.env.newKey("no account");
    assertEquals((await call(w.env, loose, "POST", `/api/answers/${DOMAIN}/runs`)).status, 403);
    const other = await call(w.env, w.key, "POST", "/api/answers/other.test/runs");
    assertEquals(other.status, 403);
    assert(/watch list/.test((await other.json()).error));
    const notJson = await w.env.handler(
      new Request(`http://localhost/api/answers/${DOMAIN}/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${w.key}`, "content-type": "text/plain" },
        body: "x",
      }),
    );
    assertEquals(notJson.status, 415);
    assertEquals(w.replay.requests.length, 0);
  } finally {
    await w.close();
  }
});

Deno.test("answers api - the plan: questions from the site, providers configured or not, the estimate and the budgets, before any call", async () => {
  const w = await world();
  try {
    const res = await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`);
    assertEquals(res.status, 200);
    const { plan, runs } = await res.json();
    assertEquals(runs, []);
    assertEquals(plan.questions.map((q: { text: string }) => q.text), [
      "What is Good Coffee Roasters?",
      "Where can I find Fresh Small-Batch Coffee?",
    ]);
    assertEquals(
      plan.providers.map((p: { id: string; configured: boolean }) => [p.id, p.configured]),
      [["openai", true], ["perplexity", true], ["anthropic", true], ["gemini", false]],
    );
    assertEquals(plan.estimate.calls, 2 * 3 * 3);
    assertEquals(plan.estimate.notConfigured, ["gemini"]);
    // 6 calls each at the documented per-call estimate of each default model.
    const perCall = Object.fromEntries(
      plan.estimate.providers.map((p: { id: string; usdPerCall: number }) => [p.id, p.usdPerCall]),
    );
    assertEquals(perCall, { openai: 0.0252, perplexity: 0.007, anthropic: 0.0351 });
    const shares = plan.estimate.providers.map((p: { usd: number }) => p.usd);
    assertEquals(shares, [0.1513, 0.0421, 0.2107]);
    assertEquals(plan.estimate.usd, 0.4041);
    assert(/estimate/i.test(plan.estimate.note));
    assertEquals(plan.budget.account, { used: 0, limit: 20 });
    assertEquals(plan.budget.global, { used: 0, limit: 30 });
    assertEquals(w.replay.requests.length, 0);
  } finally {
    await w.close();
  }
});

Deno.test("answers api - a run: k of N per provider beside the crawler verdicts; budgets refuse the next runs with nothing spent", async () => {
  const w = await world();
  try {
    await scanned(w.env);
    w.replay.script("openai", ["answer"]);
    w.replay.script("perplexity", ["answer"]);
    w.replay.script("anthropic", ["overloaded", "answer"]);
    const result = await run(w);
    const r = result.run;
    assertEquals(r.status, "done");
    const by = Object.fromEntries(r.providers.map((p: { id: string }) => [p.id, p]));
    assertEquals(by.openai.status, "done");
    assertEquals([by.openai.calls, by.openai.overall.cited.k, by.openai.overall.cited.n], [
      6,
      6,
      6,
    ]);
    assertEquals(by.openai.questions[0].measures.cited, { k: 3, n: 3, low: 0.4385, high: 1 });
    assertEquals(by.perplexity.overall.cited.k, 0);
    assertEquals(by.perplexity.overall.competitorOnly.k, 6);
    assertEquals(by.perplexity.overall.retrievedNotCited.k, 6);
    assertEquals(by.anthropic.status, "done");
    assertEquals(by.gemini.status, "not_configured");
    assertEquals(by.gemini.overall.cited.n, 0);
    assert(/not a zero/.test(by.gemini.detail));
    // Beside Perplexity's absence: PerplexityBot is blocked by the site's robots.txt (the site
    // declares no preference against it, and its edge answered the probe).
    const bot = by.perplexity.causes.crawlers.find((c: { token: string }) =>
      c.token === "PerplexityBot"
    );
    assertEquals(bot.verdicts.map((v: { access: string; label: string }) => [v.label, v.access]), [
      ["robots.txt", "blocked"],
      ["the site's declared AI usage preferences", "allowed"],
      ["the CDN or firewall", "allowed"],
    ]);
    assert(
      by.perplexity.causes.notes.some((n: string) => /PerplexityBot.*blocked.*plausible/.test(n)),
    );
    assert(!by.perplexity.causes.notes.some((n: string) => /because/i.test(n)));
    // OpenAI cites the site and its crawlers are allowed: no claim of a cause.
    assert(!by.openai.causes.notes.some((n: string) => /plausible/.test(n)));
    assertEquals(r.scan.status, "ok");
    // The answers, as said, with their sources (capped, and the caps said).
    assertEquals(result.kept, { answerChars: 4000, sourcesPerAnswer: 20 });
    assertEquals(result.answers.length, 18);
    const first = result.answers[0];
    assertEquals([first.provider, first.question, first.sample], [
      "openai",
      "What is Good Coffee Roasters?",
      1,
    ]);
    assert(first.text.startsWith("Good Coffee Roasters in Portland"));
    assertEquals(first.sources[0].url, "https://good.test/shop");
    // The vendors got the questions with the operator's keys, at their own hosts only.
    assertEquals(
      new Set(w.replay.requests.map((q) => q.host)),
      new Set(["api.openai.com", "api.perplexity.ai", "api.anthropic.com"]),
    );
    assertEquals(w.replay.requests.filter((q) => q.vendor === "anthropic").length, 7);

    // Budgets: 18 of the account's 20 calls and of the instance's 30 are used today.
    const before = w.replay.requests.length;
    const again = await call(w.env, w.key, "POST", `/api/answers/${DOMAIN}/runs`);
    assertEquals(again.status, 429);
    assert(Number(again.headers.get("retry-after")) > 0);
    const refused = await again.json();
    assertEquals(refused.budget, { scope: "account", used: 18, limit: 20, needed: 18 });
    assert(/Nothing was spent/.test(refused.error));
    const operator = await call(w.env, PIPELINE, "POST", `/api/answers/${DOMAIN}/runs`);
    assertEquals(operator.status, 429);
    assertEquals((await operator.json()).budget, {
      scope: "global",
      used: 18,
      limit: 30,
      needed: 18,
    });
    assertEquals(w.replay.requests.length, before, "nothing was sent to a vendor");
    const plan = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals([plan.budget.account.used, plan.budget.global.used], [18, 18]);
    // Nothing about the keys is in the logs.
    const logged = JSON.stringify(w.logs);
    for (const k of Object.values(OPERATOR_KEYS)) assert(!logged.includes(k));
  } finally {
    await w.close();
  }
});

Deno.test("answers api - a provider that keeps answering 429 stops, and its calls not made are given back", async () => {
  const w = await world();
  try {
    w.replay.script("openai", ["answer"]);
    w.replay.script("perplexity", ["rate_limited"]);
    w.replay.script("anthropic", ["spend_limit"]);
    const r = (await run(w)).run;
    const by = Object.fromEntries(r.providers.map((p: { id: string }) => [p.id, p]));
    assertEquals([by.perplexity.status, by.perplexity.calls], ["rate_limited", 1]);
    assertEquals(by.perplexity.failures, [{
      failure: "rate_limited",
      status: 429,
      code: "rate_limit_exceeded",
      count: 1,
    }]);
    assertEquals([by.anthropic.status, by.anthropic.calls], ["key_refused", 1]);
    // Three attempts for Perplexity's one call, one for Anthropic's.
    assertEquals(w.replay.requests.filter((q) => q.vendor === "perplexity").length, 3);
    assertEquals(w.replay.requests.filter((q) => q.vendor === "anthropic").length, 1);
    const plan = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals(plan.budget.account.used, 6 + 1 + 1);
    assertEquals(plan.budget.global.used, 8);
  } finally {
    await w.close();
  }
});

Deno.test("answers api - a user's own key: sealed at rest, never shown, used for its provider and outside the instance's budget", async () => {
  const w = await world();
  try {
    const put = await call(w.env, w.key, "PUT", "/api/answers/keys/gemini", {
      apiKey: USER_GEMINI_KEY,
    });
    assertEquals(put.status, 200);
    const shown = await put.text();
    assert(!shown.includes(USER_GEMINI_KEY));
    assert(!(await dumpKv(w.env)).includes(USER_GEMINI_KEY), "the key is not in KV in clear");
    const keys = await (await call(w.env, w.key, "GET", "/api/answers/keys")).json();
    assertEquals(keys.keys.find((k: { provider: string }) => k.provider === "gemini").set, true);
    assert(!JSON.stringify(keys).includes(USER_GEMINI_KEY));
    assertEquals(
      (await call(w.env, PIPELINE, "PUT", "/api/answers/keys/gemini", { apiKey: "x".repeat(20) }))
        .status,
      403,
    );
    assertEquals(
      (await call(w.env, w.key, "PUT", "/api/answers/keys/nope", { apiKey: "x".repeat(20) }))
        .status,
      404,
    );

    // Fewer questions so the account's budget (20) takes four providers: 1 question x 3 x 4.
    const edited = await call(w.env, w.key, "PUT", `/api/answers/${DOMAIN}/questions`, {
      questions: ["Which roasters ship coffee within two days?"],
      competitors: ["https://www.rival-roasters.example/"],
    });
    assertEquals(edited.status, 200);
    assertEquals((await edited.json()).competitors, ["rival-roasters.example"]);
    const r = (await run(w)).run;
    const gemini = r.providers.find((p: { id: string }) => p.id === "gemini");
    assertEquals([gemini.status, gemini.keySource], ["done", "account"]);
    assertEquals(r.questions[0].basis, "written by the site's owner");
    const sent = w.replay.requests.filter((q) => q.vendor === "gemini");
    assert(
      sent.length === 3 && sent.every((q) => q.headers.get("x-goog-api-key") === USER_GEMINI_KEY),
    );
    // A competitor listed: "competitor only" means that competitor cited, the site absent.
    const perplexity = r.providers.find((p: { id: string }) => p.id === "perplexity");
    assertEquals(perplexity.overall.competitorOnly.k, 3);
    const plan = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals([plan.budget.account.used, plan.budget.global.used], [12, 9]);
    assert(!JSON.stringify(w.logs).includes(USER_GEMINI_KEY));

    assertEquals((await call(w.env, w.key, "DELETE", "/api/answers/keys/gemini")).status, 200);
    assertEquals((await call(w.env, w.key, "DELETE", "/api/answers/keys/gemini")).status, 404);
  } finally {
    await w.close();
  }
});

Deno.test("answers api - a second run flags a change only where the intervals separate; one run at a time", async () => {
  const w = await world({
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "100",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "100",
  });
  try {
    w.replay.script("openai", ["answer"]);
    const first = (await run(w)).run;
    w.env.clock.now += 3600_000;
    // While a run is in progress another is refused.
    w.replay.script("openai", ["no_citations"]);
    const started = await call(w.env, w.key, "POST", `/api/answers/${DOMAIN}/runs`);
    assertEquals(started.status, 202);
    const busy = await call(w.env, w.key, "POST", `/api/answers/${DOMAIN}/runs`);
    assertEquals(busy.status, 409);
    await idle(answersOf(w.env.deps));
    const second =
      (await (await call(w.env, w.key, "GET", (await started.json()).run.links.self)).json()).run;
    assertEquals(second.previousRunId, first.id);
    const openai = second.providers.find((p: { id: string }) => p.id === "openai");
    // 6 of 6 named and cited, then 0 of 6: the provider's rates moved; each question's 3 of 3 ->
    // 0 of 3 did not.
    assertEquals(
      openai.changes.map((
        c: { question: string | null; measure: string; direction: string },
      ) => [c.question, c.measure, c.direction]),
      [[null, "mentioned", "down"], [null, "cited", "down"]],
    );
    const list = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).runs;
    assertEquals(list.map((x: { id: string }) => x.id), [second.id, first.id]);
    // Another owner cannot read the run.
    assertEquals(
      (await call(w.env, PIPELINE, "GET", `/api/answers/${DOMAIN}/runs/${first.id}`)).status,
      404,
    );
  } finally {
    await w.close();
  }
});

Deno.test("answers api - edges: users' keys off, the score untouched, too many runs at once, a run cut short", async () => {
  const w = await world({ ANSWERS_USER_KEYS: "0" });
  try {
    const off = await call(w.env, w.key, "PUT", "/api/answers/keys/gemini", {
      apiKey: USER_GEMINI_KEY,
    });
    assertEquals(off.status, 403);
    assert(/ANSWERS_USER_KEYS/.test((await off.json()).error));

    await scanned(w.env);
    const before = JSON.stringify((await w.env.store.getScan(DOMAIN))!.record);
    const r = await run(w);
    assertEquals(r.run.status, "done");
    // Answer presence is its own section: the scan record (its 0-100 score) is untouched.
    assertEquals(JSON.stringify((await w.env.store.getScan(DOMAIN))!.record), before);

    // Eight runs in progress on this server: the ninth is refused before anything is reserved.
    const a = answersOf(w.env.deps);
    const hold = Promise.withResolvers<void>();
    for (let i = 0; i < 8; i++) a.running.add(hold.promise.then(() => {}));
    const used = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan
      .budget.account.used;
    const busy = await call(w.env, w.key, "POST", `/api/answers/${DOMAIN}/runs`);
    assertEquals(busy.status, 429);
    assertEquals(busy.headers.get("retry-after"), "60");
    await busy.body?.cancel();
    const after = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals(after.budget.account.used, used);
    a.running.clear();
    hold.resolve();

    // A run still "running" long after it began was cut short: it reads as failed.
    const stale = {
      ...r.run,
      id: crypto.randomUUID(),
      status: "running" as const,
      owner: { kind: "account" as const, accountId: "acct-answers-1" },
      createdAt: w.env.clock.now - 3 * 3600_000,
      finishedAt: null,
    };
    await a.answers.saveRun(stale as never, 3600_000);
    const read = await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}/runs/${stale.id}`))
      .json();
    assertEquals(read.run.status, "failed");
    assert(/cut short/.test(read.run.problem));
  } finally {
    answersOf(w.env.deps).running.clear();
    await w.close();
  }
});
