/**
 * The four vendor adapters against the local replay server (tests/helpers/answers_replay.ts),
 * reached through the guarded fetcher's resolve map like the fixture sites: answers and their
 * sources read as each vendor documents them, a response with no citations, rate limits honoured
 * (Retry-After, Gemini's RetryInfo), 5xx and Anthropic's 529 retried, refused keys and spent
 * quotas not retried, the vendor's message (which may quote the key) never kept.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { parseScanResolve } from "../../../lib/kit/config.ts";
import { createGuardedFetcher } from "../../../lib/kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../../../lib/kit/net/types.ts";
import { anthropic } from "../../../lib/features/answers/anthropic.ts";
import { gemini } from "../../../lib/features/answers/gemini.ts";
import { openai } from "../../../lib/features/answers/openai.ts";
import { perplexity } from "../../../lib/features/answers/perplexity.ts";
import type { ProviderAdapter } from "../../../lib/features/answers/provider.ts";
import {
  type CallOutcome,
  callProvider,
  MAX_WAIT_MS,
} from "../../../lib/features/answers/vendor_call.ts";
import { presenceOf } from "../../../lib/features/answers/presence.ts";
import { readVendorAnswer } from "../../../lib/features/answers/vendor_answer.ts";
import {
  loadFixture,
  type Replay,
  startReplay,
  VENDOR_HOSTS,
} from "../../helpers/answers_replay.ts";

const KEY = "test-key-0123456789";
/** The four verdicts of a presence (ranks and share of voice are tested in answers_floor_test). */
const verdicts = (p: ReturnType<typeof presenceOf>) => ({
  mentioned: p.mentioned,
  cited: p.cited,
  competitorOnly: p.competitorOnly,
  retrievedNotCited: p.retrievedNotCited,
});

const SITE = { domain: "good.test", brand: "Good Coffee Roasters", competitors: [] };

/** The vendor's body read as a worker reads it (here, in this isolate). */
const read = (r: { provider: ProviderAdapter["id"]; status: number; body: string | null }) =>
  Promise.resolve(readVendorAnswer({ kind: "vendor-answer", ...r, site: SITE }));

async function withReplay(
  fn: (
    r: Replay,
    ask: (p: ProviderAdapter) => Promise<{ outcome: CallOutcome; waits: number[] }>,
  ) => Promise<void>,
): Promise<void> {
  const replay = startReplay();
  const fetcher = createGuardedFetcher({
    userAgent: "answers-test",
    resolve: parseScanResolve(replay.resolve),
    maxRedirects: 0,
  });
  try {
    await fn(replay, async (p) => {
      const waits: number[] = [];
      const outcome = await callProvider(p, "Where can I find fresh coffee?", p.defaultModel, KEY, {
        fetcher,
        read,
        timeoutMs: 5000,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        now: () => Date.parse("2026-11-26T12:00:00Z"),
        random: () => 0,
      });
      return { outcome, waits };
    });
  } finally {
    await fetcher.close();
    await replay.close();
  }
}

function answer(o: CallOutcome) {
  if (!o.ok) throw new Error(`expected an answer, got ${JSON.stringify(o)}`);
  return o.answer;
}

Deno.test("answers adapters - every fixture names the vendor page and the day it was read", async () => {
  for (const vendor of Object.keys(VENDOR_HOSTS)) {
    for await (
      const f of Deno.readDir(new URL(`../../fixtures/answers/${vendor}/`, import.meta.url))
    ) {
      const fx = await loadFixture(vendor as never, f.name.replace(/\.json$/, ""));
      assert(/^https:\/\/[a-z.]+\//.test(fx.doc), `${vendor}/${f.name}: doc`);
      // The days the vendors' pages were read: 2026-11-26, and 2026-12-06 for the fixtures of
      // issue 44 (the search action's `queries`, many sources, the canary, share of voice).
      assert(["2026-11-26", "2026-12-06"].includes(fx.checked), `${vendor}/${f.name}: checked`);
      assert(fx.note.length > 20 && Number.isInteger(fx.status));
    }
  }
});

Deno.test("answers adapters - OpenAI: output_text and its url_citation annotations; the search's sources are retrieved", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("openai", ["answer"]);
    const { outcome, waits } = await ask(openai);
    const a = answer(outcome);
    assert(a.text.startsWith("Good Coffee Roasters in Portland"));
    assertEquals(
      a.sources.map((s) => [s.url, s.kind, s.host]),
      [
        ["https://good.test/shop", "cited", "good.test"],
        ["https://rival-roasters.example/", "cited", "rival-roasters.example"],
        ["https://coffee-guide.example/best-roasters", "retrieved", "coffee-guide.example"],
      ],
    );
    assertEquals(a.sources[0].title, "Shop | Good Coffee Roasters");
    assertEquals(a.usage, { inputTokens: 7312, outputTokens: 214, searches: 1 });
    assertEquals(a.model, "gpt-5.4-mini-2026-03-17");
    assertEquals(waits, []);
    const req = replay.requests[0];
    assertEquals([req.host, req.path], ["api.openai.com", "/v1/responses"]);
    assertEquals(req.headers.get("authorization"), `Bearer ${KEY}`);
    const body = req.body as Record<string, unknown>;
    assertEquals(body.tools, [{ type: "web_search" }]);
    assertEquals(body.include, ["web_search_call.action.sources"]);
    assertEquals(verdicts(presenceOf(a, SITE)), {
      mentioned: true,
      cited: true,
      competitorOnly: false,
      retrievedNotCited: false,
    });
  });
});

Deno.test("answers adapters - OpenAI: an answer with no citations is an answer, cited nowhere", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("openai", ["no_citations"]);
    const a = answer((await ask(openai)).outcome);
    assertEquals(a.sources, []);
    assertEquals(presenceOf(a, SITE).cited, false);
    assertEquals(a.usage.searches, 1);
  });
});

Deno.test("answers adapters - OpenAI: 429 waits for Retry-After then answers; insufficient_quota is never retried; the key's echo is not kept", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("openai", ["rate_limited", "answer"]);
    const first = await ask(openai);
    assert(first.outcome.ok);
    assertEquals(first.outcome.attempts, 2);
    assertEquals(first.waits, [1000]);

    replay.script("openai", ["insufficient_quota", "answer"]);
    const quota = await ask(openai);
    assertEquals(quota.waits, []);
    assertEquals(quota.outcome, {
      ok: false,
      failure: "key_refused",
      status: 429,
      code: "insufficient_quota",
      attempts: 1,
      retryAfterMs: null,
    });

    replay.script("openai", ["bad_key"]);
    const bad = await ask(openai);
    assert(!bad.outcome.ok && bad.outcome.failure === "key_refused");
    assert(!JSON.stringify(bad.outcome).includes("LEAK"), "the vendor's message is not kept");
  });
});

Deno.test("answers adapters - OpenAI: a 500 is retried twice with back-off, then given up", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("openai", ["server_error"]);
    const { outcome, waits } = await ask(openai);
    assertEquals(waits, [1000, 2000]);
    assertEquals(replay.requests.length, 3);
    assert(!outcome.ok && outcome.failure === "server_error" && outcome.attempts === 3);
  });
});

Deno.test("answers adapters - Perplexity: citations are cited (titles from search_results), the other search results retrieved", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("perplexity", ["answer"]);
    const a = answer((await ask(perplexity)).outcome);
    assertEquals(
      a.sources.map((s) => [s.url, s.kind, s.title]),
      [
        ["https://coffee-guide.example/best-roasters", "cited", "The best small roasters"],
        ["https://rival-roasters.example/beans", "cited", "Beans | Rival Roasters"],
        ["https://www.good.test/", "retrieved", "Good Coffee Roasters"],
      ],
    );
    assertEquals(a.usage, { inputTokens: 14, outputTokens: 120, searches: 1 });
    // The site is retrieved (www.good.test is good.test) but not cited; a rival is cited.
    assertEquals(verdicts(presenceOf(a, SITE)), {
      mentioned: false,
      cited: false,
      competitorOnly: true,
      retrievedNotCited: true,
    });
    const req = replay.requests[0];
    assertEquals([req.host, req.path], ["api.perplexity.ai", "/chat/completions"]);
    const body = req.body as Record<string, unknown>;
    assertEquals(body.web_search_options, { search_context_size: "low" });
    assertEquals(body.model, "sonar");
  });
});

Deno.test("answers adapters - Perplexity: no citations; 429 waits for its Retry-After; 503 retried", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("perplexity", ["no_citations"]);
    const a = answer((await ask(perplexity)).outcome);
    assertEquals(a.sources, []);
    assertEquals(presenceOf(a, SITE).mentioned, true);

    replay.script("perplexity", ["rate_limited", "answer"]);
    const limited = await ask(perplexity);
    assertEquals(limited.waits, [2000]);
    assert(limited.outcome.ok);

    replay.script("perplexity", ["server_error", "answer"]);
    const down = await ask(perplexity);
    assertEquals(down.waits, [1000]);
    assert(down.outcome.ok);
  });
});

Deno.test("answers adapters - Anthropic: text blocks joined, web_search_result_location citations cited, search results retrieved", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("anthropic", ["answer"]);
    const a = answer((await ask(anthropic)).outcome);
    assertEquals(
      a.text,
      "I'll look that up. Good Coffee Roasters is a small-batch roaster in Portland, Oregon.",
    );
    assertEquals(
      a.sources.map((s) => [s.url, s.kind]),
      [
        ["https://good.test/about", "cited"],
        ["https://coffee-guide.example/portland", "retrieved"],
      ],
    );
    assertEquals(a.usage, { inputTokens: 9420, outputTokens: 150, searches: 1 });
    const req = replay.requests[0];
    assertEquals([req.host, req.path], ["api.anthropic.com", "/v1/messages"]);
    assertEquals(req.headers.get("x-api-key"), KEY);
    assertEquals(req.headers.get("anthropic-version"), "2023-06-01");
    assertEquals((req.body as { tools: unknown }).tools, [
      { type: "web_search_20250305", name: "web_search", max_uses: 2 },
    ]);
  });
});

Deno.test("answers adapters - Anthropic: no citations; a search error block; 529 and 429 retried; the spend cap is not", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("anthropic", ["no_citations"]);
    assertEquals(answer((await ask(anthropic)).outcome).sources, []);

    replay.script("anthropic", ["search_error"]);
    const failedSearch = answer((await ask(anthropic)).outcome);
    assertEquals([failedSearch.sources, failedSearch.usage.searches], [[], 0]);

    replay.script("anthropic", ["overloaded", "overloaded", "answer"]);
    const busy = await ask(anthropic);
    assert(busy.outcome.ok && busy.outcome.attempts === 3);
    assertEquals(busy.waits, [1000, 2000]);

    replay.script("anthropic", ["rate_limited", "answer"]);
    assertEquals((await ask(anthropic)).waits, [3000]);

    replay.script("anthropic", ["spend_limit", "answer"]);
    const capped = await ask(anthropic);
    assertEquals(capped.waits, []);
    assert(!capped.outcome.ok && capped.outcome.failure === "key_refused");
  });
});

Deno.test("answers adapters - Gemini: grounding chunks named by their title, cited when a support points at them", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("gemini", ["answer"]);
    const a = answer((await ask(gemini)).outcome);
    assertEquals(
      a.text,
      "Good Coffee Roasters roasts in Portland and ships fast. Rival Roasters sells beans online too.",
    );
    assertEquals(
      a.sources.map((s) => [s.host, s.kind]),
      [["good.test", "cited"], ["rival-roasters.example", "cited"], [
        "coffee-guide.example",
        "retrieved",
      ]],
    );
    assert(a.sources.every((s) => s.url.startsWith("https://vertexaisearch.cloud.google.com/")));
    assertEquals(a.usage, { inputTokens: 912, outputTokens: 100, searches: 2 });
    const req = replay.requests[0];
    assertEquals(req.host, "generativelanguage.googleapis.com");
    assertEquals(req.path, "/v1beta/models/gemini-3-flash-preview:generateContent");
    assertEquals(req.headers.get("x-goog-api-key"), KEY);
    assertEquals(presenceOf(a, SITE).cited, true);
  });
});

Deno.test("answers adapters - Gemini: no grounding; RetryInfo's delay honoured; 503 retried; FAILED_PRECONDITION not", async () => {
  await withReplay(async (replay, ask) => {
    replay.script("gemini", ["no_grounding"]);
    const plain = answer((await ask(gemini)).outcome);
    assertEquals([plain.sources, plain.usage.searches], [[], 0]);

    replay.script("gemini", ["resource_exhausted", "answer"]);
    assertEquals((await ask(gemini)).waits, [2000]);

    replay.script("gemini", ["unavailable", "answer"]);
    assertEquals((await ask(gemini)).waits, [1000]);

    replay.script("gemini", ["no_billing"]);
    const billing = await ask(gemini);
    assert(!billing.outcome.ok && billing.outcome.failure === "key_refused");
    assertEquals(billing.waits, []);
  });
});

Deno.test("answers adapters - a Retry-After longer than the longest wait gives up at once", async () => {
  const fetcher: GuardedFetcher = {
    fetch: (url) =>
      Promise.resolve({
        url,
        finalUrl: url,
        status: 429,
        headers: { "retry-after": "600" },
        body: '{"error":{"type":"rate_limit_error"}}',
        bytes: 10,
        truncated: false,
        redirects: [],
        ttfbMs: 1,
        totalMs: 1,
        remoteAddress: "",
      }),
    close: () => Promise.resolve(),
  };
  const waits: number[] = [];
  const out = await callProvider(anthropic, "q?", "m", KEY, {
    fetcher,
    read,
    timeoutMs: 1000,
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
    now: () => 0,
  });
  assertEquals(waits, []);
  assert(!out.ok && out.failure === "rate_limited" && out.retryAfterMs === 600_000);
  assert(600_000 > MAX_WAIT_MS);
});

Deno.test("answers adapters - a request is only ever sent to the adapter's own host", async () => {
  const sneaky: ProviderAdapter = {
    ...openai,
    request: (q, m, k) => ({ ...openai.request(q, m, k), url: "https://collector.example/v1" }),
  };
  const fetcher: GuardedFetcher = {
    fetch: () => Promise.reject(new Error("must not be called")),
    close: () => Promise.resolve(),
  };
  let refused = false;
  try {
    await callProvider(sneaky, "q?", "m", KEY, {
      fetcher,
      read,
      timeoutMs: 1000,
      sleep: () => Promise.resolve(),
      now: () => 0,
    });
  } catch (e) {
    refused = /refused/.test(String(e));
  }
  assert(refused);
});

Deno.test("answers adapters - a 2xx body that is not the documented shape is an invalid response, not an answer", async () => {
  for (const p of [openai, perplexity, anthropic, gemini]) {
    const fetcher: GuardedFetcher = {
      fetch: (url) =>
        Promise.resolve({
          url,
          finalUrl: url,
          status: 200,
          headers: {},
          body: '{"unexpected": true}',
          bytes: 20,
          truncated: false,
          redirects: [],
          ttfbMs: 1,
          totalMs: 1,
          remoteAddress: "",
        }),
      close: () => Promise.resolve(),
    };
    const out = await callProvider(p, "q?", "m", KEY, {
      fetcher,
      read,
      timeoutMs: 1000,
      sleep: () => Promise.resolve(),
      now: () => 0,
    });
    assert(!out.ok && out.failure === "invalid_response", p.id);
  }
});
