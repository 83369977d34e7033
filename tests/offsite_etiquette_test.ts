/**
 * Good citizenship towards Wikimedia and Common Crawl, and verdicts that rest on evidence:
 * an honest User-Agent with a contact, one request at a time per host, Retry-After and maxlag
 * honoured (nothing is sent while a host backs us off), Common Crawl's longer budget, and
 * "found" only when the fetched answer says so. Uses the repo's own fake (tests/fixtures/
 * offsite_server.ts); a last test replays the recorded real answers of ../shared/corpus when that
 * folder exists (it is never copied here).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { createGuardedFetcher } from "../lib/kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../lib/kit/net/types.ts";
import { HostEtiquette, retryAfterMs, ThrottledError } from "../lib/engines/offsite/etiquette.ts";
import { checkOffSite, OffSiteCache, type OffSiteConfig } from "../lib/engines/offsite/offsite.ts";
import {
  type FakeOffSite,
  type OffSiteScenario,
  startFakeOffSite,
} from "./fixtures/offsite_server.ts";

interface Env {
  fake: FakeOffSite;
  fetcher: GuardedFetcher;
  config: OffSiteConfig;
  ua: string;
}

async function withFake(
  scenario: OffSiteScenario,
  fn: (env: Env) => Promise<void>,
  timeouts: { offsiteTimeoutMs?: number; commonCrawlTimeoutMs?: number } = {},
) {
  const fake = await startFakeOffSite(scenario);
  const ua = loadConfig({ PUBLIC_URL: "https://checker.example.org", CONTACT: "ops@example.org" })
    .userAgent;
  const fetcher = createGuardedFetcher({
    userAgent: ua,
    resolve: fake.resolve,
    requestTimeoutMs: 2_000,
    lookup: () => Promise.reject(new Error("DNS is disabled in tests")),
  });
  try {
    await fn({
      fake,
      fetcher,
      ua,
      config: { ...fake.config, offsiteTimeoutMs: 2_000, ...timeouts },
    });
  } finally {
    await fetcher.close();
    await fake.close();
  }
}

/** A cache whose etiquette runs on a clock the test moves. */
function cacheAt(clock: { now: number }): OffSiteCache {
  return new OffSiteCache({
    now: () => clock.now,
    etiquette: new HostEtiquette({ now: () => clock.now, minIntervalMs: 0 }),
  });
}

Deno.test("the User-Agent names the bot, its version and a real contact, never a browser", () => {
  const local = loadConfig({}).userAgent;
  assert.ok(!local.startsWith("Mozilla/"), local);
  assert.match(local, /^AIVisibilityBot\/\d+\.\d+\.\d+ \(\+http:\/\/localhost:8000\/; local\)/);
  assert.ok(!/github\.com/.test(local), "no placeholder repository");
  const schema = loadConfig({ SERVICE: "schema" }).userAgent;
  assert.match(schema, /\+http:\/\/localhost:8001\//);
  const pub = loadConfig({ PUBLIC_URL: "https://checker.example.org", CONTACT: "ops@example.org" })
    .userAgent;
  // Wikimedia's form: <client>/<version> (<contact>) <library>/<version>.
  assert.match(
    pub,
    /^AIVisibilityBot\/[\d.]+ \(\+https:\/\/checker\.example\.org; ops@example\.org\) Deno\/[\d.]+/,
  );
  assert.ok(!pub.includes("local"));
});

Deno.test("every off-site request carries that User-Agent", async () => {
  await withFake({}, async (env) => {
    await checkOffSite({ ...env, domain: "site.test", name: "Site", cache: new OffSiteCache() });
    assert.ok(env.fake.requests.length >= 4);
    for (const r of env.fake.requests) assert.equal(r.userAgent, env.ua);
  });
});

Deno.test("HostEtiquette: one request at a time per host, hosts independent", async () => {
  const etiquette = new HostEtiquette({ minIntervalMs: 0 });
  const running = new Map<string, number>();
  const peak = new Map<string, number>();
  const signal = new AbortController().signal;
  const task = (host: string) =>
    etiquette.run(host, signal, async () => {
      running.set(host, (running.get(host) ?? 0) + 1);
      peak.set(host, Math.max(peak.get(host) ?? 0, running.get(host)!));
      await new Promise((r) => setTimeout(r, 10));
      running.set(host, running.get(host)! - 1);
      return host;
    });
  const started = performance.now();
  const results = await Promise.all([
    task("a.test"),
    task("a.test"),
    task("a.test"),
    task("b.test"),
    task("b.test"),
  ]);
  assert.deepEqual(results, ["a.test", "a.test", "a.test", "b.test", "b.test"]);
  assert.equal(peak.get("a.test"), 1);
  assert.equal(peak.get("b.test"), 1);
  assert.ok(performance.now() - started >= 25, "the three a.test requests ran in series");
});

Deno.test("HostEtiquette: a waiting request gives up when its signal aborts", async () => {
  const etiquette = new HostEtiquette({ minIntervalMs: 0 });
  let release!: () => void;
  const first = etiquette.run(
    "a.test",
    new AbortController().signal,
    () => new Promise<void>((r) => (release = r)),
  );
  const controller = new AbortController();
  const second = etiquette.run("a.test", controller.signal, () => Promise.resolve("sent"));
  controller.abort(new Error("deadline"));
  await assert.rejects(second, /deadline/);
  release();
  await first;
  // The slot is free again.
  assert.equal(
    await etiquette.run("a.test", new AbortController().signal, () => Promise.resolve(1)),
    1,
  );
});

Deno.test("Retry-After is read as seconds or a date, capped, with a default", async () => {
  assert.equal(retryAfterMs("30", 0), 30_000);
  assert.equal(retryAfterMs(new Date(60_000).toUTCString(), 0), 60_000);
  assert.equal(retryAfterMs("soon", 0), null);
  assert.equal(retryAfterMs(undefined, 0), null);
  const clock = { now: 0 };
  const e = new HostEtiquette({ now: () => clock.now });
  assert.equal(e.throttled("h", undefined), 60_000);
  assert.equal(e.throttled("h", "999999"), 15 * 60_000);
  assert.equal(e.backoffLeft("h"), 15 * 60_000);
  let sent = false;
  await assert.rejects(
    e.run("h", new AbortController().signal, () => Promise.resolve(sent = true)),
    ThrottledError,
  );
  assert.equal(sent, false);
  clock.now += 15 * 60_000;
  assert.equal(await e.run("h", new AbortController().signal, () => Promise.resolve(2)), 2);
});

Deno.test("Wikipedia 429 with Retry-After: unknown, and nothing is sent there until it passes", async () => {
  await withFake({
    wikipedia: { fail: "429" },
    wikidata: { items: [] },
  }, async (env) => {
    const clock = { now: 1_000_000 };
    const cache = cacheAt(clock);
    const first = await checkOffSite({ ...env, domain: "one.test", name: "One", cache });
    assert.equal(first?.wikipedia.status, "unknown");
    const asked = env.fake.requestsTo("wikipedia.test").length;
    assert.equal(asked, 1);

    env.fake.setScenario({ wikidata: { items: [] } });
    clock.now += 10_000;
    const during = await checkOffSite({ ...env, domain: "two.test", name: "Two", cache });
    assert.equal(during?.wikipedia.status, "unknown");
    assert.match(during?.wikipedia.detail ?? "", /throttled/);
    assert.equal(env.fake.requestsTo("wikipedia.test").length, asked, "nothing sent");

    clock.now += 25_000;
    const after = await checkOffSite({ ...env, domain: "three.test", name: "Three", cache });
    assert.equal(after?.wikipedia.status, "not_found");
    assert.ok(env.fake.requestsTo("wikipedia.test").length > asked);
  });
});

Deno.test("a Wikidata maxlag answer backs off for its Retry-After and reads unknown", async () => {
  await withFake({ wikidata: { fail: "maxlag" } }, async (env) => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const result = await checkOffSite({ ...env, domain: "lag.test", name: null, cache });
    assert.equal(result?.wikidata.status, "unknown");
    assert.match(result?.wikidata.detail ?? "", /maxlag/);
    assert.equal(cache.etiquette.backoffLeft("wikidata.test"), 5_000);
    // maxlag= itself is not sent: these are interactive reads (see docs/configuration.md).
    assert.ok(env.fake.requestsTo("wikidata.test").every((r) => !r.params.has("maxlag")));
  });
});

Deno.test("Common Crawl: empty 200, 503 Slow Down and 504 are unknown; only the 404 answer is not_found", async (t) => {
  for (const fail of ["empty200", "503", "504"] as const) {
    await t.step(fail, async () => {
      await withFake({ commonCrawl: { fail, failOn: "index" } }, async (env) => {
        const cache = cacheAt({ now: 0 });
        const result = await checkOffSite({ ...env, domain: "cc.test", name: null, cache });
        assert.equal(result?.commonCrawl.status, "unknown", String(result?.commonCrawl.detail));
        if (fail === "503") assert.equal(cache.etiquette.backoffLeft("commoncrawl.test"), 20_000);
      });
    });
  }
  await t.step("the index's 404 'No Captures found' is not_found", async () => {
    await withFake({ commonCrawl: { captures: {} } }, async (env) => {
      const result = await checkOffSite({
        ...env,
        domain: "cc.test",
        name: null,
        cache: new OffSiteCache(),
      });
      assert.equal(result?.commonCrawl.status, "not_found");
    });
  });
});

Deno.test("Common Crawl has its own, longer budget", async () => {
  await withFake(
    { commonCrawl: { fail: "hang", failOn: "index" } },
    async (env) => {
      const started = performance.now();
      const result = await checkOffSite({
        ...env,
        domain: "slow.test",
        name: null,
        cache: new OffSiteCache(),
      });
      assert.equal(result?.wikidata.status, "not_found");
      assert.equal(result?.commonCrawl.status, "unknown");
      assert.match(result?.commonCrawl.detail ?? "", /timed out after 700 ms/);
      assert.ok(performance.now() - started >= 650);
    },
    { offsiteTimeoutMs: 300, commonCrawlTimeoutMs: 700 },
  );
});

Deno.test("Wikidata: found only when the fetched item states the website", async (t) => {
  await t.step("the search index still lists a website the item no longer has", async () => {
    await withFake({
      wikidata: {
        items: [{
          id: "Q7",
          label: "Moved",
          websites: ["https://new.example/"],
          staleWebsites: [
            "https://moved.test/",
          ],
        }],
      },
    }, async (env) => {
      const r = await checkOffSite({
        ...env,
        domain: "moved.test",
        name: null,
        cache: new OffSiteCache(),
      });
      assert.equal(r?.wikidata.status, "unknown", String(r?.wikidata.detail));
      assert.match(r?.wikidata.detail ?? "", /Q7/);
    });
  });
  await t.step("the item was deleted", async () => {
    await withFake({
      wikidata: {
        items: [{ id: "Q8", label: "Gone", websites: ["https://gone.test/"], deleted: true }],
      },
    }, async (env) => {
      const r = await checkOffSite({
        ...env,
        domain: "gone.test",
        name: null,
        cache: new OffSiteCache(),
      });
      assert.notEqual(r?.wikidata.status, "found", String(r?.wikidata.detail));
    });
  });
  await t.step("an official website with a path is found through the name", async () => {
    await withFake({
      wikidata: {
        items: [{ id: "Q9", label: "Pathco", websites: ["https://www.pathco.test/en/"] }],
      },
    }, async (env) => {
      const r = await checkOffSite({
        ...env,
        domain: "pathco.test",
        name: "Pathco",
        cache: new OffSiteCache(),
      });
      assert.equal(r?.wikidata.status, "found", String(r?.wikidata.detail));
    });
  });
});

const REPLAY = new URL("../../shared/corpus/integrations/replay_server.ts", import.meta.url);
const replayPresent = await Deno.stat(REPLAY).then(() => true, () => false);

Deno.test({
  name:
    "recorded real answers (../shared/corpus, when present): throttling is unknown and backs off",
  ignore: !replayPresent,
  async fn() {
    const { startReplay } = await import(REPLAY.href);
    const fake = await startReplay();
    const config = loadConfig({ SCAN_RESOLVE: fake.scanResolve, OFFSITE_TIMEOUT_MS: "4000" });
    const fetcher = createGuardedFetcher({
      userAgent: config.userAgent,
      resolve: config.scanResolve,
      requestTimeoutMs: 4000,
      lookup: () => Promise.reject(new Error("DNS disabled")),
    });
    try {
      const cache = cacheAt({ now: 0 });
      fake.set({
        wikidata: { fail: "maxlag" },
        wikipedia: { fail: "429" },
        commonCrawl: { answer: { "throttled.example": "429" } },
      });
      const r = await checkOffSite({
        domain: "throttled.example",
        name: "Throttled",
        fetcher,
        config,
        cache,
      });
      assert.equal(r?.wikidata.status, "unknown");
      assert.equal(r?.wikipedia.status, "unknown");
      assert.equal(r?.commonCrawl.status, "unknown");
      assert.ok(cache.etiquette.backoffLeft("www.wikidata.org") > 0, "maxlag's Retry-After");
      assert.ok(cache.etiquette.backoffLeft("en.wikipedia.org") > 0, "429's Retry-After");
      const seen = fake.seen.length;
      fake.set({ commonCrawl: { answer: { "empty.example": "empty200" } } });
      const empty = await checkOffSite({
        domain: "empty.example",
        name: null,
        fetcher,
        config,
        cache: new OffSiteCache(),
      });
      assert.equal(empty?.commonCrawl.status, "unknown");
      assert.ok(fake.seen.length > seen);
    } finally {
      await fetcher.close();
      await fake.close();
    }
  },
});
