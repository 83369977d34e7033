/**
 * Statistics a marketer can trust (issue 44, item 1 and 2), against the replay server's answers in
 * the vendors' documented shapes: a site cited as the 25th of 33 sources is counted (the display
 * keeps 20); each citation's rank and the searches each assistant ran are kept and shown; share of
 * voice of the site and three competitors is exact on a hand-counted fixture; a question's
 * stability; default runs ask each question at the published floor (7) with the canary panel, and
 * adaptive sampling stops once the intervals are narrow enough; a canary answered differently under
 * the same model name is flagged; every rate is labelled with provider, model, surface and N.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { parseScanResolve } from "../../../lib/kit/config.ts";
import { createGuardedFetcher } from "../../../lib/kit/net/guarded_fetch.ts";
import { anthropic } from "../../../lib/features/answers/anthropic.ts";
import { gemini } from "../../../lib/features/answers/gemini.ts";
import { openai } from "../../../lib/features/answers/openai.ts";
import { perplexity } from "../../../lib/features/answers/perplexity.ts";
import { displayedSources, MAX_SOURCES } from "../../../lib/features/answers/provider.ts";
import type { ParsedAnswer, ProviderAdapter } from "../../../lib/features/answers/provider.ts";
import { callProvider, type KeptAnswer } from "../../../lib/features/answers/vendor_call.ts";
import { readVendorAnswer } from "../../../lib/features/answers/vendor_answer.ts";
import { presenceOf } from "../../../lib/features/answers/presence.ts";
import { voiceOf } from "../../../lib/features/answers/voice.ts";
import { stabilityOf } from "../../../lib/features/answers/stability.ts";
import { CANARY_QUESTIONS, compareCanary } from "../../../lib/features/answers/canary.ts";
import { SAMPLE_FLOOR } from "../../../lib/features/answers/config.ts";
import { loadFixture, startReplay } from "../../helpers/answers_replay.ts";
import { call, DOMAIN, run, world } from "../../helpers/answers_env.ts";

const SITE = { domain: "good.test", brand: "Good Coffee Roasters", competitors: [] };

/**
 * Asks one question of `p` through the guarded fetcher, answered by `fixture`: the adapter's whole
 * answer (every source), and what the call keeps of it once read as a worker reads it (the
 * "vendor-answer" job, judged for {@link SITE}).
 */
async function answerAndKept(
  p: ProviderAdapter,
  fixture: string,
): Promise<{ whole: ParsedAnswer; kept: KeptAnswer }> {
  const replay = startReplay();
  replay.script(p.id, [fixture]);
  const fetcher = createGuardedFetcher({
    userAgent: "answers-test",
    resolve: parseScanResolve(replay.resolve),
    maxRedirects: 0,
  });
  let whole: ParsedAnswer | null = null;
  try {
    const outcome = await callProvider(p, "Which roasters are good?", p.defaultModel, "k-0123456", {
      fetcher,
      timeoutMs: 5000,
      sleep: () => Promise.resolve(),
      now: () => 0,
      read: (response) => {
        if (response.body !== null) whole = p.parse(JSON.parse(response.body));
        return Promise.resolve(
          readVendorAnswer({ kind: "vendor-answer", ...response, site: SITE }),
        );
      },
    });
    if (!outcome.ok || !whole) throw new Error(`no answer: ${outcome.ok || outcome.failure}`);
    return { whole, kept: outcome.answer };
  } finally {
    await fetcher.close();
    await replay.close();
  }
}

/** The adapter's whole answer to `fixture`. */
async function answerOf(p: ProviderAdapter, fixture: string): Promise<ParsedAnswer> {
  return (await answerAndKept(p, fixture)).whole;
}

Deno.test("answers floor - a site cited as the 25th of 33 sources is cited, at rank 25; the display keeps 20", async () => {
  const a = await answerOf(openai, "many_sources");
  assertEquals(a.sources.filter((s) => s.kind === "cited").length, 33);
  const p = presenceOf(a, SITE);
  assertEquals([p.cited, p.citedRank], [true, 25]);
  const shown = displayedSources(a.sources);
  assertEquals(shown.kept.length, MAX_SOURCES);
  assertEquals(shown.total, { cited: 33, retrieved: 0 });
  assert(!shown.kept.some((s) => s.host === "good.test"), "the 25th is past the display cap");
  // What the call keeps, read in the worker's job: the display's 20, and presence judged on all 33.
  const { kept } = await answerAndKept(openai, "many_sources");
  assertEquals(kept.sources.length, MAX_SOURCES);
  assertEquals(kept.sourceTotal, { cited: 33, retrieved: 0 });
  assertEquals([kept.presence.cited, kept.presence.citedRank], [true, 25]);
});

Deno.test("answers floor - the searches each assistant ran, where its API returns them", async () => {
  assertEquals((await answerOf(openai, "many_sources")).queries, [
    "coffee roasters compared",
    "small batch coffee roasters list",
  ]);
  // The older single `query` of a search action, when `queries` is absent.
  assertEquals((await answerOf(openai, "answer")).queries, ["fresh small-batch coffee roasters"]);
  assertEquals((await answerOf(anthropic, "answer")).queries, ["Good Coffee Roasters Portland"]);
  const g = await loadFixture("gemini", "answer");
  const documented = (g.body as {
    candidates: { groundingMetadata: { webSearchQueries: string[] } }[];
  }).candidates[0].groundingMetadata.webSearchQueries;
  assertEquals((await answerOf(gemini, "answer")).queries, documented);
  // Sonar's documented response names no query: none is made up.
  assertEquals((await answerOf(perplexity, "answer")).queries, []);
  assertEquals([openai, anthropic, gemini, perplexity].map((p) => p.returnsQueries), [
    true,
    true,
    true,
    false,
  ]);
});

Deno.test("answers floor - share of voice of the site and three competitors, counted by hand", async () => {
  const site = {
    ...SITE,
    competitors: ["bean-barn.example", "cup-club.example", "roast-row.example"],
    competitorNames: {
      "bean-barn.example": "Bean Barn",
      "cup-club.example": "Cup Club",
      "roast-row.example": "Roast Row",
    },
  };
  const presences = [];
  for (const f of ["rivals_1", "rivals_2", "rivals_3", "rivals_4"]) {
    presences.push(presenceOf(await answerOf(openai, f), site));
  }
  const lines = voiceOf(presences);
  const row = (d: string) => {
    const l = lines.find((x) => x.domain === d)!;
    return [l.mentioned.k, l.cited.k, l.first.k, l.mentioned.n, l.mentionShare, l.citationShare];
  };
  // 1: names Bean Barn (first), the site, Cup Club; cites Cup Club and the site.
  // 2: names the site (first), Roast Row; cites the site, Roast Row, Bean Barn.
  // 3: names Cup Club (first), Roast Row; cites Roast Row, Cup Club.
  // 4: names and cites none: nobody is first.
  // Mentions: site 2, Bean Barn 1, Cup Club 2, Roast Row 2 (7 in all); citations: site 2,
  // Bean Barn 1, Cup Club 2, Roast Row 2 (7 in all).
  assertEquals(row("good.test"), [2, 2, 1, 4, 0.286, 0.286]);
  assertEquals(row("bean-barn.example"), [1, 1, 1, 4, 0.143, 0.143]);
  assertEquals(row("cup-club.example"), [2, 2, 1, 4, 0.286, 0.286]);
  assertEquals(row("roast-row.example"), [2, 2, 0, 4, 0.286, 0.286]);
  assertEquals(lines[0].site, true);
  // Each rate carries its Wilson interval: 2 of 4 is 15-85%.
  const named = lines[0].mentioned;
  assertEquals([Math.round(named.low * 100), Math.round(named.high * 100)], [15, 85]);
});

Deno.test("answers floor - stability: the mean Jaccard of cited sites and the named agreement", () => {
  assertEquals(
    stabilityOf([
      { citedSites: ["a.example", "b.example"], mentioned: true },
      { citedSites: ["a.example"], mentioned: true },
      { citedSites: ["c.example"], mentioned: false },
    ]),
    // Pairs: {a,b}-{a} 1/2, {a,b}-{c} 0, {a}-{c} 0 -> 0.167; named agree in 1 of 3 pairs.
    { answers: 3, citedSites: 0.167, named: 0.333 },
  );
  assertEquals(stabilityOf([{ citedSites: [], mentioned: true }]), {
    answers: 1,
    citedSites: null,
    named: null,
  });
});

Deno.test("answers floor - the canary: first, same, changed silently, another model, not read", () => {
  const at = (answers: (string | null)[], model: string | null = "m-1") => ({
    model,
    answers,
    at: 1,
  });
  assertEquals(compareCanary("X", at(["au", "366", "mercury"]), null).status, "first");
  const before = at(["au", "366", "mercury"]);
  assertEquals(compareCanary("X", at(["au", "366", "venus"]), before).status, "same");
  assertEquals(compareCanary("X", at(["gold", "366", "venus"]), before).status, "changed_silently");
  assertEquals(compareCanary("X", at(["au", "366", "mercury"], "m-2"), before).status, "changed");
  assertEquals(compareCanary("X", at([null, null, null]), before).status, "not_read");
});

/** Canary questions answered by `fixture`; every other question by the script. */
function canaryRoute(fixture: string) {
  return (body: unknown) => {
    const input = String((body as { input?: unknown })?.input ?? "");
    return (CANARY_QUESTIONS as readonly string[]).includes(input) ? fixture : null;
  };
}

Deno.test("answers floor - default runs ask each question 7 times with the canary; a silently changed canary is flagged", async () => {
  const w = await world({
    // The defaults: no ANSWERS_SAMPLES, the canary on, one provider.
    ANSWERS_SAMPLES: "",
    ANSWERS_CANARY: "",
    PERPLEXITY_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "200",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "500",
  });
  try {
    const plan = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals(plan.samples, SAMPLE_FLOOR);
    assertEquals(plan.sampling.meetsFloor, true);
    assertEquals(plan.estimate.canaryCalls, CANARY_QUESTIONS.length);
    assertEquals(plan.estimate.calls, 2 * 7 + 3);
    w.replay.route("openai", canaryRoute("canary_au"));
    const first = await run(w);
    const p = first.run.providers.find((x: { id: string }) => x.id === "openai");
    assertEquals(p.questions.map((q: { answered: number }) => q.answered), [7, 7]);
    assertEquals(w.replay.requests.length, 2 * 7 + 3);
    assertEquals(p.canary.status, "first");
    assertEquals(p.rateLabel, {
      provider: "ChatGPT search (OpenAI)",
      model: "gpt-5.4-mini-2026-03-17",
      surface: "API with web search (the Responses API), not the ChatGPT app",
      answers: 14,
    });
    // The fixture's search query and its citation ranks are kept and shown.
    assertEquals(p.questions[0].queries, [{
      query: "fresh small-batch coffee roasters",
      answers: 7,
    }]);
    assertEquals(p.questions[0].citedRank, { best: 1, median: 1 });
    assertEquals(p.questions[0].stability.citedSites, 1);
    const answer = first.answers[0];
    assertEquals(answer.queries, ["fresh small-batch coffee roasters"]);
    assertEquals(answer.sources[0].rank, 1);
    // The same model name, the canary answered otherwise: flagged.
    w.replay.route("openai", canaryRoute("canary_gold_word"));
    const second = await run(w);
    const q = second.run.providers.find((x: { id: string }) => x.id === "openai");
    assertEquals(q.canary.status, "changed_silently");
    assert(/changed silently/.test(q.canary.text), q.canary.text);
    // A third run with the vendor reporting another snapshot: changed.
    w.replay.route("openai", canaryRoute("canary_new_model"));
    const third = await run(w);
    assertEquals(
      third.run.providers.find((x: { id: string }) => x.id === "openai").canary.status,
      "changed",
    );
  } finally {
    await w.close();
  }
});

Deno.test("answers floor - adaptive sampling asks more only while an interval is wider than the target", async () => {
  const w = await world({
    ANSWERS_SAMPLES: "",
    ANSWERS_SAMPLING: "adaptive",
    ANSWERS_TARGET_WIDTH: "0.35",
    ANSWERS_MAX_SAMPLES: "12",
    PERPLEXITY_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "200",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "500",
  });
  try {
    const plan = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    // Reserved: the most it may ask.
    assertEquals(plan.estimate.calls, 2 * 12);
    const done = await run(w);
    const p = done.run.providers.find((x: { id: string }) => x.id === "openai");
    // Every answer alike: 7 of 7 is 65-100% (35.4 points wide), 8 of 8 is 68-100% (32.4): one more.
    assertEquals(p.questions.map((q: { answered: number }) => q.answered), [8, 8]);
    assertEquals(done.run.sampling.mode, "adaptive");
    // The calls not made were given back.
    const after = (await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}`)).json()).plan;
    assertEquals(after.budget.account.used, 16);
  } finally {
    await w.close();
  }
});
