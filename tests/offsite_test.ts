/**
 * The off-site step against a fake Wikidata, Wikipedia and Common Crawl on loopback, through the
 * real guarded fetcher (SCAN_RESOLVE maps the fake host names; DNS is disabled so nothing can
 * leave the machine).
 */
import assert from "node:assert/strict";
import { createGuardedFetcher } from "../lib/kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../lib/kit/net/types.ts";
import { OffSiteCache } from "../lib/engines/offsite/cache.ts";
import { checkOffSite, type OffSiteConfig } from "../lib/engines/offsite/offsite.ts";
import type { DeadlineTimer, OffSiteCheckName } from "../lib/engines/offsite/lookup.ts";
import { OffSiteSchema } from "../lib/engines/visibility/record.ts";
import {
  type FakeFailure,
  type FakeOffSite,
  type OffSiteScenario,
  startFakeOffSite,
} from "./fixtures/offsite_server.ts";

const UA = "AIVisibilityBot/0.1.0 (+https://checker.example.org; ops@example.org) Deno/2.9.6";
/**
 * Each check's budget: one no lookup of the fake on loopback reaches, however loaded the machine,
 * so an answer is never lost to the clock; the tests of a hanging service fire its deadline
 * themselves once its request is held ({@link firedOn}).
 */
const TIMEOUT_MS = 60_000;
/** A check that has not ended this long after its deadline fired hangs (never reached when right). */
const HANG_MS = 60_000;
const HOUR = 60 * 60 * 1000;
/** The host each check asks. */
const HOSTS: Record<OffSiteCheckName, string> = {
  wikidata: "wikidata.test",
  wikipedia: "wikipedia.test",
  commonCrawl: "commoncrawl.test",
};

/**
 * Deadlines the test fires: a check's passes when `when(check)` resolves (null: never), not when
 * the clock says. What the tests prove (a held lookup ends "unknown", the others are unaffected)
 * then holds on any machine.
 */
function firedOn(when: (check: OffSiteCheckName) => Promise<void> | null): DeadlineTimer {
  return (_ms, fire, check) => {
    let live = true;
    when(check)?.then(() => live && fire());
    return () => {
      live = false;
    };
  };
}

/** `p`, or a failure when it has not settled within {@link HANG_MS}: a hang, not a slow machine. */
async function ends<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hangs`)), HANG_MS);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

interface Env {
  fake: FakeOffSite;
  fetcher: GuardedFetcher;
  config: OffSiteConfig;
}

/** Runs `fn` with a fake on loopback and a real guarded fetcher, and always cleans both up. */
async function withFake(scenario: OffSiteScenario, fn: (env: Env) => Promise<void>) {
  const fake = await startFakeOffSite(scenario);
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    resolve: fake.resolve,
    requestTimeoutMs: TIMEOUT_MS,
    maxBodyBytes: 5 * 1024 * 1024,
    // Only the SCAN_RESOLVE hosts may be reached: any other name fails instead of asking DNS.
    lookup: () => Promise.reject(new Error("DNS is disabled in tests")),
  });
  try {
    await fn({ fake, fetcher, config: { ...fake.config, offsiteTimeoutMs: TIMEOUT_MS } });
  } finally {
    await fetcher.close();
    await fake.close();
  }
}

// A site present everywhere: P856 match with an enwiki sitelink, many captures.
const ACME: OffSiteScenario = {
  wikidata: {
    items: [
      { id: "Q1001", label: "Acme", websites: ["https://acme.org/"] },
      {
        id: "Q4242",
        label: "Acme Rockets",
        websites: ["https://www.acme-rockets.com/"],
        enwiki: "Acme Rockets",
      },
    ],
  },
  wikipedia: {
    articles: [{ title: "Acme Rockets", links: ["https://www.acme-rockets.com/"] }],
  },
  commonCrawl: { captures: { "acme-rockets.com": 120 } },
};

// Found on Wikidata by website but without an enwiki sitelink; Wikipedia only via its links.
const EPSILON: OffSiteScenario = {
  wikidata: { items: [{ id: "Q5", label: "Epsilon", websites: ["https://epsilon.shop/"] }] },
  wikipedia: {
    articles: [
      { title: "Epsilon (letter)", links: ["https://unicode.test/"] },
      { title: "Epsilon (retailer)", links: ["https://news.test/a", "https://epsilon.shop/"] },
    ],
  },
  commonCrawl: { captures: { "epsilon.shop": 3 } },
};

function check(env: Env, domain: string, name: string | null, extra: {
  cache?: OffSiteCache;
  signal?: AbortSignal;
  now?: () => number;
  deadline?: DeadlineTimer;
} = {}) {
  return checkOffSite({
    domain,
    name,
    fetcher: env.fetcher,
    config: env.config,
    cache: extra.cache ?? new OffSiteCache(),
    signal: extra.signal,
    now: extra.now,
    deadline: extra.deadline,
  });
}

Deno.test("[offsite] a site present everywhere is found on all three, with evidence URLs", async () => {
  await withFake(ACME, async (env) => {
    const result = await check(env, "acme-rockets.com", "Acme Rockets");
    assert.ok(result);
    OffSiteSchema.parse(result);
    assert.equal(result.wikidata.status, "found");
    assert.equal(result.wikidata.url, "http://wikidata.test/wiki/Q4242");
    assert.match(result.wikidata.detail, /Q4242.*official website/);
    assert.equal(result.wikipedia.status, "found");
    assert.equal(result.wikipedia.url, "http://wikipedia.test/wiki/Acme_Rockets");
    assert.match(result.wikipedia.detail, /linked from Wikidata item Q4242/);
    assert.equal(result.commonCrawl.status, "found");
    assert.match(
      result.commonCrawl.detail,
      /At least 50 captures of acme-rockets\.com in CC-MAIN-2025-08/,
    );
    assert.equal(
      result.commonCrawl.url,
      "http://commoncrawl.test/CC-MAIN-2025-08-index?url=acme-rockets.com&matchType=domain&output=json&limit=50",
    );

    // Found by official website: the name search was not needed.
    const wikidata = env.fake.requestsTo("wikidata.test");
    assert.ok(!wikidata.some((r) => r.params.get("action") === "wbsearchentities"));
    const srsearch = wikidata[0].params.get("srsearch") ?? "";
    for (
      const variant of [
        "https://acme-rockets.com/",
        "https://www.acme-rockets.com",
        "http://acme-rockets.com/",
        "http://www.acme-rockets.com",
      ]
    ) assert.ok(srsearch.includes(`P856=${variant}|`) || srsearch.endsWith(`P856=${variant}"`));
    // Every call identifies us and asks for JSON.
    assert.ok(env.fake.requests.length > 0);
    for (const r of env.fake.requests) {
      assert.equal(r.userAgent, UA);
      assert.equal(r.accept, "application/json");
    }
  });
});

Deno.test("[offsite] found by name when the item's official website is on the domain", async () => {
  await withFake({
    wikidata: {
      items: [{ id: "Q77", label: "Beta Widgets", websites: ["https://beta-widgets.io/about"] }],
    },
    wikipedia: {
      articles: [{ title: "Beta Widgets", links: ["http://www.beta-widgets.io/"] }],
    },
    commonCrawl: { captures: { "beta-widgets.io": 1 } },
  }, async (env) => {
    const result = await check(env, "beta-widgets.io", "Beta Widgets");
    assert.ok(result);
    assert.equal(result.wikidata.status, "found");
    assert.equal(result.wikidata.url, "http://wikidata.test/wiki/Q77");
    assert.match(result.wikidata.detail, /named "Beta Widgets".*official website/);
    // No sitelink: the article is found because it links to the domain.
    assert.equal(result.wikipedia.status, "found");
    assert.equal(result.wikipedia.url, "http://wikipedia.test/wiki/Beta_Widgets");
    assert.match(result.wikipedia.detail, /links to beta-widgets\.io/);
    assert.equal(result.commonCrawl.status, "found");
    assert.match(result.commonCrawl.detail, /^1 capture of beta-widgets\.io/);
    const actions = env.fake.requestsTo("wikidata.test").map((r) => r.params.get("action"));
    assert.deepEqual(actions, ["query", "wbsearchentities", "wbgetentities"]);
  });
});

Deno.test("[offsite] a name match with a different official website is not_found", async () => {
  await withFake({
    wikidata: {
      items: [{
        id: "Q88",
        label: "Gamma",
        websites: ["https://gamma-corp.com/"],
        enwiki: "Gamma (company)",
      }],
    },
    wikipedia: {
      articles: [
        { title: "Gamma", links: ["https://physics.test/gamma"] },
        { title: "Gamma (company)", links: ["https://gamma-corp.com/"] },
      ],
    },
    commonCrawl: { captures: { "gamma-corp.com": 10 } },
  }, async (env) => {
    const result = await check(env, "gamma.app", "Gamma");
    assert.ok(result);
    assert.deepEqual(result.wikidata.status, "not_found");
    assert.match(result.wikidata.detail, /1 item labelled "Gamma" has a different or no official/);
    assert.equal(result.wikidata.url, null);
    // The other Gamma's sitelink must not be borrowed.
    assert.equal(result.wikipedia.status, "not_found");
    assert.match(result.wikipedia.detail, /none of the top search results for "Gamma"/);
    assert.equal(result.commonCrawl.status, "not_found");
    assert.match(result.commonCrawl.detail, /No captures of gamma\.app in CC-MAIN-2025-08/);
    assert.ok(result.commonCrawl.url?.startsWith("http://commoncrawl.test/CC-MAIN-2025-08-index?"));
  });
});

Deno.test("[offsite] without an entity name: Wikidata by website only, Wikipedia searched by domain", async (t) => {
  await withFake({
    wikipedia: {
      articles: [{
        title: "Delta Labs",
        text: "Website delta-labs.dev",
        links: ["https://delta-labs.dev/"],
      }],
    },
  }, async (env) => {
    await t.step("article linking to the domain is found", async () => {
      const result = await check(env, "delta-labs.dev", null);
      assert.ok(result);
      assert.equal(result.wikidata.status, "not_found");
      assert.match(result.wikidata.detail, /no entity name was known/);
      assert.equal(result.wikipedia.status, "found");
      assert.equal(result.wikipedia.url, "http://wikipedia.test/wiki/Delta_Labs");
      const search = env.fake.requestsTo("wikipedia.test")[0];
      assert.equal(search.params.get("srsearch"), "delta-labs.dev");
      assert.ok(
        !env.fake.requestsTo("wikidata.test").some((r) =>
          r.params.get("action") === "wbsearchentities"
        ),
      );
    });
    await t.step("nothing found is not_found, and says no name was known", async () => {
      const result = await check(env, "zeta-nothing.dev", "  ");
      assert.ok(result);
      assert.equal(result.wikipedia.status, "not_found");
      assert.match(result.wikipedia.detail, /no entity name was known/);
      assert.equal(result.commonCrawl.status, "not_found");
    });
  });
});

const SERVICES = ["wikidata", "wikipedia", "commonCrawl"] as const;

/** `base` with one service failing in one way on every call. */
function failing(
  base: OffSiteScenario,
  service: typeof SERVICES[number],
  fail: FakeFailure,
): OffSiteScenario {
  switch (service) {
    case "wikidata":
      return { ...base, wikidata: { ...base.wikidata, fail } };
    case "wikipedia":
      return { ...base, wikipedia: { ...base.wikipedia, fail } };
    case "commonCrawl":
      return { ...base, commonCrawl: { ...base.commonCrawl, fail } };
  }
}

const FAILURES: FakeFailure[] = ["500", "invalid_json", "wrong_shape", "api_error"];
const REASONS: Record<string, RegExp> = {
  "500": /HTTP 500/,
  invalid_json: /invalid JSON/,
  wrong_shape: /unexpected response shape/,
  api_error: /API error "maxlag"/,
};

Deno.test("[offsite] failing Wikidata is unknown, never not_found", async (t) => {
  await withFake(EPSILON, async (env) => {
    for (const fail of FAILURES) {
      await t.step(fail, async () => {
        env.fake.setScenario(failing(EPSILON, "wikidata", fail));
        const result = await check(env, "epsilon.shop", "Epsilon");
        assert.ok(result);
        assert.equal(result.wikidata.status, "unknown");
        assert.match(result.wikidata.detail, REASONS[fail]);
        assert.equal(result.wikidata.url, null);
        // The others still answer; Wikipedia has its own evidence.
        assert.equal(result.wikipedia.status, "found");
        assert.equal(result.commonCrawl.status, "found");
      });
    }
  });
});

Deno.test("[offsite] failing Wikipedia is unknown, never not_found", async (t) => {
  await withFake(EPSILON, async (env) => {
    for (const fail of FAILURES) {
      for (const failOn of ["search", "extlinks"] as const) {
        await t.step(`${fail} on ${failOn}`, async () => {
          env.fake.setScenario({ ...EPSILON, wikipedia: { ...EPSILON.wikipedia, fail, failOn } });
          const result = await check(env, "epsilon.shop", "Epsilon");
          assert.ok(result);
          assert.equal(result.wikipedia.status, "unknown");
          assert.match(result.wikipedia.detail, REASONS[fail]);
          assert.equal(result.wikidata.status, "found");
          assert.equal(result.commonCrawl.status, "found");
        });
      }
    }
  });
});

Deno.test("[offsite] failing Common Crawl is unknown, never not_found", async (t) => {
  await withFake(EPSILON, async (env) => {
    for (const fail of FAILURES) {
      for (const failOn of ["collinfo", "index"] as const) {
        await t.step(`${fail} on ${failOn}`, async () => {
          env.fake.setScenario({
            ...EPSILON,
            commonCrawl: { ...EPSILON.commonCrawl, fail, failOn },
          });
          const result = await check(env, "epsilon.shop", "Epsilon");
          assert.ok(result);
          assert.equal(result.commonCrawl.status, "unknown");
          assert.equal(result.commonCrawl.url, null);
          assert.match(
            result.commonCrawl.detail,
            failOn === "collinfo" ? /crawl list unavailable/ : /index query failed/,
          );
          assert.equal(result.wikidata.status, "found");
          assert.equal(result.wikipedia.status, "found");
        });
      }
    }
  });
});

Deno.test("[offsite] partial Wikidata failures: evidence found still counts, absence does not", async (t) => {
  await withFake(EPSILON, async (env) => {
    await t.step("website search fails, the name search still finds the item", async () => {
      env.fake.setScenario({
        ...EPSILON,
        wikidata: { ...EPSILON.wikidata, fail: "500", failOn: "search" },
      });
      const result = await check(env, "epsilon.shop", "Epsilon");
      assert.equal(result?.wikidata.status, "found");
      assert.match(result?.wikidata.detail ?? "", /named "Epsilon"/);
    });
    await t.step("website search fails and the name matches nothing: unknown", async () => {
      env.fake.setScenario({
        ...EPSILON,
        wikidata: { ...EPSILON.wikidata, fail: "500", failOn: "search" },
      });
      const result = await check(env, "epsilon.shop", "Nobody");
      assert.equal(result?.wikidata.status, "unknown");
      assert.match(result?.wikidata.detail ?? "", /search by official website failed \(HTTP 500\)/);
    });
    await t.step("item found but unreadable: no article can be ruled out", async () => {
      env.fake.setScenario({
        ...EPSILON,
        wikidata: { ...EPSILON.wikidata, fail: "500", failOn: "wbgetentities" },
        wikipedia: { articles: [] },
      });
      const result = await check(env, "epsilon.shop", "Epsilon");
      assert.equal(result?.wikidata.status, "found");
      assert.equal(result?.wikipedia.status, "unknown");
      assert.match(result?.wikipedia.detail ?? "", /Wikidata lookup failed/);
    });
  });
});

Deno.test("[offsite] a hanging endpoint times out as unknown at its deadline; the others answer", async (t) => {
  await withFake(EPSILON, async (env) => {
    for (const service of SERVICES) {
      await t.step(service, async () => {
        // EPSILON has no sitelink to fall back on, so a hanging Wikipedia decides its own check.
        env.fake.setScenario(failing(EPSILON, service, "hang"));
        // Its deadline passes once its request is held; the other two have none that passes.
        const deadline = firedOn((c) => c === service ? env.fake.held(HOSTS[c]) : null);
        const result = await ends(check(env, "epsilon.shop", "Epsilon", { deadline }), service);
        assert.ok(result);
        assert.equal(result[service].status, "unknown");
        assert.match(
          result[service].detail,
          new RegExp(
            `timed out after ${service === "commonCrawl" ? 2 * TIMEOUT_MS : TIMEOUT_MS} ms`,
          ),
        );
        for (const other of SERVICES) {
          if (other !== service) assert.equal(result[other].status, "found", other);
        }
      });
    }
    await t.step("all three at once", async () => {
      env.fake.setScenario({
        wikidata: { fail: "hang" },
        wikipedia: { fail: "hang" },
        commonCrawl: { fail: "hang" },
      });
      const deadline = firedOn((c) => env.fake.held(HOSTS[c]));
      const result = await ends(check(env, "epsilon.shop", "Epsilon", { deadline }), "all three");
      assert.ok(result);
      for (const key of SERVICES) {
        assert.equal(result[key].status, "unknown", key);
        assert.match(result[key].detail, /timed out after/, key);
      }
    });
  });
});

Deno.test("[offsite] the caller's signal cancels every lookup at once", async () => {
  await withFake({
    wikidata: { fail: "hang" },
    wikipedia: { fail: "hang" },
    commonCrawl: { fail: "hang" },
  }, async (env) => {
    const controller = new AbortController();
    // Aborted once all three lookups are held (their deadlines are a minute away).
    Promise.all(SERVICES.map((c) => env.fake.held(HOSTS[c]))).then(() => controller.abort());
    const result = await ends(
      check(env, "epsilon.shop", "Epsilon", { signal: controller.signal }),
      "the cancelled step",
    );
    // Ended by the signal, not by a deadline: every detail says so (no timing asserted).
    assert.ok(result);
    for (const key of SERVICES) {
      assert.equal(result[key].status, "unknown", key);
      assert.match(result[key].detail, /cancelled/, key);
    }
  });
});

Deno.test("[offsite] a fetcher that never settles cannot hang the step", async () => {
  // No server at all: the deadline alone must end every check, each once its request is stuck.
  const asked = new Map<string, () => void>();
  const stuckOn = (host: string) => new Promise<void>((r) => asked.set(host, r));
  const waits = Object.fromEntries(
    SERVICES.map((c) => [c, stuckOn(HOSTS[c])]),
  ) as Record<OffSiteCheckName, Promise<void>>;
  const stuck: GuardedFetcher = {
    fetch: (url) => {
      asked.get(new URL(url).hostname)?.();
      return new Promise(() => {});
    },
    close: async () => {},
  };
  const result = await ends(
    checkOffSite({
      domain: "stuck.test",
      name: "Stuck",
      fetcher: stuck,
      config: {
        wikidataApiUrl: "http://wikidata.test/w/api.php",
        wikipediaApiUrl: "http://wikipedia.test/w/api.php",
        commonCrawlIndexUrl: "http://commoncrawl.test",
        offsiteTimeoutMs: TIMEOUT_MS,
      },
      cache: new OffSiteCache(),
      deadline: firedOn((c) => waits[c]),
    }),
    "the step",
  );
  // The Common Crawl check has twice the budget (its index is slow under load).
  assert.ok(result);
  for (const key of SERVICES) {
    assert.equal(result[key].status, "unknown", key);
    const budget = key === "commonCrawl" ? 2 * TIMEOUT_MS : TIMEOUT_MS;
    assert.match(result[key].detail, new RegExp(`timed out after ${budget} ms`), key);
  }
});

Deno.test("[offsite] the crawl list is fetched once across two domains", async () => {
  await withFake({ commonCrawl: { captures: { "one.test": 2, "two.test": 5 } } }, async (env) => {
    const cache = new OffSiteCache();
    const one = await check(env, "one.test", null, { cache });
    const two = await check(env, "two.test", null, { cache });
    assert.equal(one?.commonCrawl.status, "found");
    assert.equal(two?.commonCrawl.status, "found");
    const paths = env.fake.requestsTo("commoncrawl.test").map((r) => r.path.split("?")[0]);
    assert.deepEqual(paths, ["/collinfo.json", "/CC-MAIN-2025-08-index", "/CC-MAIN-2025-08-index"]);
  });
});

Deno.test("[offsite] answers are cached per domain and expire with the injected clock", async (t) => {
  await withFake(ACME, async (env) => {
    let clock = 1_000_000;
    const now = () => clock;
    const cache = new OffSiteCache({ now: () => assert.fail("the injected clock wins") });
    const first = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
    const asked = env.fake.requests.length;
    assert.ok(asked >= 5);

    await t.step("a second scan within 24 h asks nothing", async () => {
      clock += 23 * HOUR;
      const again = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
      assert.deepEqual(again, first);
      assert.equal(env.fake.requests.length, asked);
    });
    await t.step("another name is another question for Wikidata and Wikipedia", async () => {
      await check(env, "acme-rockets.com", "Acme", { cache, now });
      const newer = env.fake.requests.slice(asked);
      assert.ok(newer.some((r) => r.host === "wikidata.test"));
      assert.ok(newer.some((r) => r.host === "wikipedia.test"));
      assert.ok(!newer.some((r) => r.host === "commoncrawl.test"));
    });
    await t.step("after 24 h everything is asked again, the crawl list too", async () => {
      clock += 2 * HOUR;
      const before = env.fake.requests.length;
      const later = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
      assert.deepEqual(later, first);
      const newer = env.fake.requests.slice(before).map((r) => `${r.host}${r.path.split("?")[0]}`);
      assert.ok(newer.includes("commoncrawl.test/collinfo.json"));
      assert.ok(newer.includes("commoncrawl.test/CC-MAIN-2025-08-index"));
      assert.ok(newer.includes("wikidata.test/w/api.php"));
      assert.ok(newer.includes("wikipedia.test/w/api.php"));
    });
  });
});

Deno.test("[offsite] the crawl list expires after 6 hours", async () => {
  await withFake({}, async (env) => {
    let clock = 0;
    const cache = new OffSiteCache();
    const now = () => clock;
    await check(env, "a-site.test", null, { cache, now });
    clock += 5 * HOUR;
    await check(env, "b-site.test", null, { cache, now });
    clock += 2 * HOUR;
    await check(env, "c-site.test", null, { cache, now });
    const lists = env.fake.requests.filter((r) => r.path === "/collinfo.json");
    assert.equal(lists.length, 2);
  });
});

Deno.test("[offsite] failures are cached for two minutes only, then asked again", async () => {
  await withFake(failing(ACME, "commonCrawl", "500"), async (env) => {
    let clock = 5_000_000;
    const now = () => clock;
    const cache = new OffSiteCache();
    const failed = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
    assert.equal(failed?.commonCrawl.status, "unknown");
    const asked = env.fake.requestsTo("commoncrawl.test").length;
    env.fake.setScenario(ACME);
    clock += 60_000;
    const soon = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
    assert.equal(soon?.commonCrawl.status, "unknown", "a minute later the failure is remembered");
    assert.equal(env.fake.requestsTo("commoncrawl.test").length, asked);
    clock += 90_000;
    const healed = await check(env, "acme-rockets.com", "Acme Rockets", { cache, now });
    assert.equal(healed?.commonCrawl.status, "found");
    // Wikidata and Wikipedia answered the first time and came from the cache.
    assert.equal(env.fake.requestsTo("wikidata.test").length, 2);
  });
});

Deno.test("[offsite] crawl ids and cdx-api URLs from collinfo are never fetched unless valid", async (t) => {
  const hostile = [
    { id: "CC-MAIN-2025-08", "cdx-api": "http://evil.test/steal?from=cdx-api" },
    { id: "CC-MAIN-2999-99/../../admin", "cdx-api": "http://evil.test/admin" },
    { id: "CC-MAIN-9999-01x", "cdx-api": "http://commoncrawl.test/internal" },
    { id: "../../etc/passwd" },
    { id: 202513 },
    "CC-MAIN-2030-01",
    { id: "CC-MAIN-2025-13", "cdx-api": "http://evil.test/CC-MAIN-2025-13-index" },
  ];
  await withFake(
    { commonCrawl: { crawls: hostile, captures: { "site.test": 4 } } },
    async (env) => {
      await t.step("the newest valid id is used, on the configured host", async () => {
        const result = await check(env, "site.test", null);
        assert.equal(result?.commonCrawl.status, "found");
        assert.match(result?.commonCrawl.detail ?? "", /CC-MAIN-2025-13/);
        assert.equal(env.fake.requestsTo("evil.test").length, 0);
        const paths = env.fake.requestsTo("commoncrawl.test").map((r) => r.path.split("?")[0]);
        assert.deepEqual(paths, ["/collinfo.json", "/CC-MAIN-2025-13-index"]);
      });
      await t.step("no valid id at all is unknown, and nothing else is asked", async () => {
        env.fake.setScenario({ commonCrawl: { crawls: hostile.slice(1, 6) } });
        const before = env.fake.requests.length;
        const result = await check(env, "site.test", null);
        assert.equal(result?.commonCrawl.status, "unknown");
        assert.match(result?.commonCrawl.detail ?? "", /no valid crawl id/);
        const cc = env.fake.requests.slice(before).filter((r) =>
          r.host !== "wikidata.test" && r.host !== "wikipedia.test"
        );
        assert.deepEqual(cc.map((r) => r.path), ["/collinfo.json"]);
      });
    },
  );
});

Deno.test("[offsite] a domain that is not normalised makes the whole step null, asking nothing", async () => {
  await withFake(ACME, async (env) => {
    for (const domain of ["", "acme rockets.com", "http://acme-rockets.com/", "localhost"]) {
      assert.equal(await check(env, domain, "Acme"), null, domain);
    }
    assert.equal(env.fake.requests.length, 0);
  });
});

Deno.test("[offsite] OffSiteCache honours TTLs and its size limit", () => {
  let clock = 0;
  const cache = new OffSiteCache({ maxEntries: 3, now: () => clock });
  cache.set("a", 1, 1000);
  assert.equal(cache.get("a"), 1);
  clock = 1000;
  assert.equal(cache.get("a"), undefined, "expired at its TTL");
  cache.set("b", 2, 10_000);
  cache.set("c", 3, 10_000);
  cache.set("d", 4, 10_000);
  cache.set("b", 22, 10_000); // rewritten: now the newest
  cache.set("e", 5, 10_000);
  assert.equal(cache.size, 3);
  assert.equal(cache.get("c"), undefined, "the oldest write is dropped");
  assert.deepEqual([cache.get("b"), cache.get("d"), cache.get("e")], [22, 4, 5]);
  cache.clear();
  cache.set("short", 6, 10);
  cache.set("x", 7, 10_000);
  cache.set("y", 8, 10_000);
  clock += 20;
  cache.set("z", 9, 10_000);
  assert.deepEqual(
    [cache.get("x"), cache.get("y"), cache.get("z")],
    [7, 8, 9],
    "an expired entry goes before the oldest live one",
  );
  cache.set("zero", 8, 0);
  assert.equal(cache.get("zero"), undefined, "a zero TTL stores nothing");
});
