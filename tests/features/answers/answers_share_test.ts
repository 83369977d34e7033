/**
 * The operator's shared pool of vendor calls is shared fairly (issue 39, item 4): one account may
 * spend at most its stated share of the pool per UTC day on the operator's keys, all accounts
 * together never the operator's reserve, so a few sign-ups cannot exhaust the pool and the
 * operator's own runs are never starved. A refusal is a 429 naming the budget, nothing spent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { watchOf } from "../../../lib/features/watch/context.ts";
import { ANSWERS_RETRY_MS, watchTick } from "../../../lib/features/watch/scheduler.ts";
import { PIPELINE } from "../../helpers/app_env.ts";
import { createApiKey } from "../../../lib/kit/auth/keys.ts";
import { call, DOMAIN, world } from "../../helpers/answers_env.ts";
import { answersOf, idle } from "../../../lib/features/answers/context.ts";

Deno.test("answers share - one account's share, every account's part, and the operator's reserve", async () => {
  // One provider, 2 questions x 3 answers: 6 calls a run. Pool 40: a share of 25% (10 calls),
  // accounts together 80% (32 calls), 8 kept for the operator.
  const w = await world({
    PERPLEXITY_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "100",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "40",
    ANSWERS_ACCOUNT_SHARE_PERCENT: "25",
    ANSWERS_OPERATOR_RESERVE_PERCENT: "20",
  });
  const start = async (key: string) => {
    const res = await call(w.env, key, "POST", `/api/answers/${DOMAIN}/runs`);
    const body = await res.json();
    await idle(answersOf(w.env.deps));
    return { status: res.status, body, retryAfter: res.headers.get("retry-after") };
  };
  try {
    assertEquals((await start(w.key)).status, 202);
    // A second run would take the account to 12 of its 10.
    const over = await start(w.key);
    assertEquals(over.status, 429);
    assertEquals(over.body.budget, { scope: "share", used: 6, limit: 10, needed: 6 });
    assertEquals(typeof over.retryAfter, "string");
    // Four more accounts, one run each: the accounts' part reaches 30 of its 32.
    const keys: string[] = [];
    for (let i = 2; i <= 6; i++) {
      const { key } = await createApiKey(w.env.store, w.env.service.keyPrefix, {
        name: "ci",
        accountId: `acct-answers-${i}`,
        now: w.env.clock.now,
      });
      assertEquals((await call(w.env, key, "POST", "/api/watches", { url: DOMAIN })).status, 201);
      keys.push(key);
    }
    for (const key of keys.slice(0, 4)) assertEquals((await start(key)).status, 202);
    // The sixth account is refused: the rest of the pool is the operator's.
    const sixth = await start(keys[4]);
    assertEquals(sixth.status, 429);
    assertEquals(sixth.body.budget, { scope: "accounts", used: 30, limit: 32, needed: 6 });
    const requests = w.replay.requests.length;
    assertEquals(requests, 5 * 6);
    // The operator's own run still has the reserve.
    assertEquals((await start(PIPELINE)).status, 202);
    assertEquals(w.replay.requests.length, requests + 6);
  } finally {
    await w.close();
  }
});

Deno.test("answers scheduled - a watch asks the assistants weekly by default, within the budgets; refused, it tries again later", async () => {
  const w = await world({
    PERPLEXITY_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "10",
  });
  try {
    const watches = watchOf(w.env.deps);
    const [watch] = await watches.watches.list("acct-answers-1");
    assertEquals(watch.answers, "weekly");
    const due = watch.nextAnswersAt!;
    assert(due > w.env.clock.now && due - w.env.clock.now <= 7 * 24 * 3600_000);
    // Not due yet: nothing asked.
    await watchTick(watches);
    assertEquals(w.replay.requests.length, 0);
    // Due: the run starts (6 calls: 2 questions x 3 answers, one provider).
    w.env.clock.now = due;
    const report = await watchTick(watches);
    await idle(answersOf(w.env.deps));
    assertEquals(report.answersStarted, 1);
    assertEquals(w.replay.requests.length, 6);
    const after = (await watches.watches.list("acct-answers-1"))[0];
    assertEquals(after.lastAnswers?.outcome, "started");
    assertEquals(after.nextAnswersAt, due + 7 * 24 * 3600_000);
    // A week on, a manual run leaves 4 of the day's 10 calls: the scheduled run is refused, retried.
    w.env.clock.now = after.nextAnswersAt!;
    assertEquals((await call(w.env, w.key, "POST", `/api/answers/${DOMAIN}/runs`)).status, 202);
    await idle(answersOf(w.env.deps));
    const refused = await watchTick(watches);
    assertEquals(refused.answersRefused, 1);
    const later = (await watches.watches.list("acct-answers-1"))[0];
    assertEquals(later.lastAnswers?.outcome, "refused");
    assert(/calls left today/.test(later.lastAnswers!.detail), later.lastAnswers!.detail);
    assertEquals(later.nextAnswersAt, w.env.clock.now + ANSWERS_RETRY_MS);
  } finally {
    await w.close();
  }
});
