/**
 * The engine end to end: real fixture sites on loopback, the real guarded fetcher, fake off-site
 * services. Each step asserts an outcome a site owner relies on: the score, its caps, the order of
 * the issues, and fixes that can be pasted as they are.
 */
import assert from "node:assert/strict";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { type Issue, type Result, ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { PILLARS } from "../lib/engines/visibility/score.ts";
import { FOUND_EVERYWHERE, type ScanEnv, startScanEnv } from "./helpers/scan_env.ts";

const NOW = new Date("2026-11-21T12:00:00Z");

async function scan(env: ScanEnv, host: string) {
  const outcome = await scanSite(host, {
    config: env.config,
    offSiteCache: env.cache(),
    now: () => NOW,
  });
  ScanRecordSchema.parse(outcome.record);
  return outcome;
}

function signal(result: Result, id: string) {
  const s = result.pillars.flatMap((p) => p.signals).find((x) => x.id === id);
  assert.ok(s, `signal ${id} exists`);
  return s;
}

function issue(result: Result, id: string): Issue {
  const i = result.topIssues.find((x) => x.id === id);
  assert.ok(i, `issue ${id} is reported; got ${result.topIssues.map((x) => x.id).join(", ")}`);
  return i;
}

Deno.test("[score] pillar weights sum to 100", () => {
  assert.equal(PILLARS.reduce((s, p) => s + p.weight, 0), 100);
});

Deno.test("[scan] fixture sites score as an SEO expert would expect", async (t) => {
  const env = await startScanEnv();
  try {
    let goodScore = 0;
    await t.step("a well-optimised site gets an A with nothing critical", async () => {
      const { record } = await scan(env, "good.test");
      assert.equal(record.status, "ok");
      assert.equal(record.domain, "good.test");
      assert.equal(record.scannedAt, NOW.toISOString());
      const r = record.result!;
      assert.ok(r.score >= 90, `score ${r.score}`);
      assert.equal(r.grade, "A");
      assert.ok(!r.topIssues.some((i) => i.impact === "critical" || i.impact === "high"));
      assert.equal(r.pillars.reduce((s, p) => s + p.weight, 0), 100);
      for (const p of r.pillars) assert.ok(p.score >= 80, `${p.id} ${p.score}`);
      assert.equal(record.offSite?.wikidata.status, "found");
      assert.equal(record.offSite?.wikipedia.status, "found");
      assert.equal(record.offSite?.commonCrawl.status, "found");
      goodScore = r.score;
    });

    await t.step("blocking only training crawlers is reported, not punished", async () => {
      const r = (await scan(env, "blocks-training.test")).record.result!;
      const training = signal(r, "access.training_crawlers");
      assert.equal(training.status, "info");
      assert.match(training.detail, /GPTBot/);
      assert.match(training.detail, /does not lower the score/);
      assert.equal(signal(r, "access.search_crawlers").status, "pass");
      assert.equal(r.score, goodScore, "same content, same score");
    });

    await t.step("blocking AI search crawlers caps the score and comes first", async () => {
      const r = (await scan(env, "blocks-search.test")).record.result!;
      assert.ok(r.score <= 35, `score ${r.score}`);
      assert.equal(r.grade, "F");
      const first = r.topIssues[0];
      assert.equal(first.id, "access.search_crawlers");
      assert.equal(first.impact, "critical");
      assert.match(first.fix.how, /User-agent: OAI-SearchBot/);
      assert.match(first.fix.how, /User-agent: PerplexityBot/);
      assert.match(first.fix.how, /Allow: \//);
      assert.match(
        first.fix.how,
        /replace lines \d+-\d+/,
        "corrects each crawler's own group whole",
      );
      assert.doesNotMatch(first.fix.how, /Disallow: \//, "no Disallow: / is left in what to paste");
      assert.equal(signal(r, "access.search_crawlers").gate?.id, "search_crawlers_blocked");
    });

    await t.step("a blanket Disallow: / caps hardest", async () => {
      const r = (await scan(env, "blanket-disallow.test")).record.result!;
      assert.ok(r.score <= 20, `score ${r.score}`);
      assert.equal(r.topIssues[0].id, "access.blanket_disallow");
      assert.match(
        r.topIssues[0].fix.how,
        /User-agent: OAI-SearchBot\n(User-agent: .+\n)*Allow: \//,
      );
      assert.match(r.topIssues[0].fix.how, /would open the site to every crawler without a group/);
    });

    await t.step("a JS-only app shell is capped and told to render on the server", async () => {
      const r = (await scan(env, "js-shell.test")).record.result!;
      assert.ok(r.score <= 40, `score ${r.score}`);
      const s = signal(r, "content.server_text");
      assert.equal(s.status, "fail");
      assert.equal(s.gate?.id, "js_only_content");
      const i = issue(r, "content.server_text");
      assert.equal(i.impact, "critical");
      assert.match(i.fix.how, /server-side rendering/);
    });

    await t.step("noindex caps the score and names where it comes from", async () => {
      const r = (await scan(env, "noindex.test")).record.result!;
      assert.ok(r.score <= 25, `score ${r.score}`);
      assert.equal(r.topIssues[0].id, "access.indexing");
      const s = signal(r, "access.indexing");
      assert.ok(s.evidence.some((e) => /X-Robots-Tag/.test(e)));
      assert.ok(s.evidence.some((e) => /meta name="robots"/.test(e)));
    });

    await t.step(
      "an edge that 403s AI crawlers is caught although robots.txt allows them",
      async () => {
        const r = (await scan(env, "edge-blocks-bots.test")).record.result!;
        // robots.txt lets them in, the edge does not: the one verdict is "turned away", and it
        // costs what a robots.txt block costs, with the search crawlers' gate.
        const search = signal(r, "access.search_crawlers");
        assert.equal(search.status, "fail");
        assert.equal(search.gate?.id, "search_crawlers_blocked");
        assert.ok(
          search.evidence.includes(
            "OAI-SearchBot: allowed by robots.txt; refused at the edge: a challenge page (HTTP 403)",
          ),
          search.evidence.join(" | "),
        );
        const s = signal(r, "access.edge");
        assert.equal(s.status, "fail");
        assert.match(s.detail, /challenge page/);
        assert.ok(r.score <= 35, `score ${r.score}`);
        assert.equal(r.topIssues[0].id, "access.edge");
        assert.match(r.topIssues[0].fix.how, /OAI-SearchBot/);
      },
    );

    await t.step("robots.txt answering 500 means complete disallow (RFC 9309)", async () => {
      const r = (await scan(env, "robots-500.test")).record.result!;
      assert.equal(signal(r, "access.robots_txt").status, "fail");
      assert.ok(r.score <= 20, `score ${r.score}`);
      assert.equal(r.topIssues[0].id, "access.robots_txt");
      assert.match(r.topIssues[0].fix.how, /status 200/);
    });

    await t.step("a robots.txt that is an HTML page is a warning, not a block", async () => {
      const r = (await scan(env, "broken-robots.test")).record.result!;
      const s = signal(r, "access.robots_txt");
      assert.equal(s.status, "warn");
      assert.match(s.detail, /HTML page/);
      assert.equal(signal(r, "access.search_crawlers").status, "pass");
      assert.ok(r.score >= 85, `score ${r.score}`);
    });

    await t.step("a weak site gets concrete fixes generated for that site", async () => {
      const r = (await scan(env, "no-llms.test")).record.result!;
      assert.ok(r.score < 60, `score ${r.score}`);
      const llms = issue(r, "discovery.llms_txt");
      assert.match(llms.fix.how, /^Create https:\/\/no-llms\.test\/llms\.txt/);
      assert.match(llms.fix.how, /\n# .+\n\n> .+\n\n## Key pages\n\n- \[/);
      const jsonld = issue(r, "structured.jsonld");
      const script = jsonld.fix.how.match(
        /<script type="application\/ld\+json">\n([\s\S]+?)\n<\/script>/,
      );
      assert.ok(script, "the fix carries a JSON-LD script to paste");
      const graph = JSON.parse(script[1]);
      assert.equal(graph["@context"], "https://schema.org");
      const ids = new Set(graph["@graph"].map((n: { "@id": string }) => n["@id"]));
      for (const n of graph["@graph"]) {
        for (const v of Object.values(n)) {
          const ref = (v as { "@id"?: string })?.["@id"];
          if (ref) assert.ok(ids.has(ref), `reference ${ref} resolves`);
        }
      }
      const sitemap = issue(r, "discovery.sitemap");
      assert.match(
        sitemap.fix.how,
        /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
      );
      assert.match(sitemap.fix.how, /<loc>https:\/\/no-llms\.test\/<\/loc>/);
    });

    await t.step(
      "issues: gates first, one issue per remedy, the sitemap before llms.txt",
      async () => {
        for (const host of ["no-llms.test", "js-shell.test", "blanket-disallow.test"]) {
          const r = (await scan(env, host)).record.result!;
          const gates = r.topIssues.map((i) => signal(r, i.id).gate !== null);
          const firstPlain = gates.indexOf(false);
          assert.ok(
            firstPlain === -1 || !gates.slice(firstPlain).includes(true),
            `${host}: gates first`,
          );
          const hows = r.topIssues.map((i) => i.fix.how);
          assert.equal(new Set(hows).size, hows.length, `${host}: no remedy listed twice`);
          assert.ok(r.topIssues.every((i) => i.fix.how.length > 40), "every fix says how");
        }
        const weak = (await scan(env, "no-llms.test")).record.result!;
        const ids = weak.topIssues.map((i) => i.id);
        assert.ok(
          ids.indexOf("discovery.sitemap") < ids.indexOf("discovery.llms_txt"),
          ids.join(" "),
        );
        const jsonLdIssues = ids.filter((id) =>
          /structured\.(jsonld|organization|website|page_type)/.test(id)
        );
        assert.equal(jsonLdIssues.length, 1, ids.join(" "));
      },
    );

    await t.step("a page over 5 MB is cut, still scored, and flagged", async () => {
      const { record } = await scan(env, "huge.test");
      assert.equal(record.status, "ok");
      assert.equal(signal(record.result!, "technical.page_size").status, "fail");
    });

    await t.step("malformed HTML and invalid UTF-8 give an honest report", async () => {
      const { record } = await scan(env, "malformed.test");
      assert.equal(record.status, "ok");
      const r = record.result!;
      assert.match(signal(r, "technical.title").detail, /Mike's Discount Tyres & Exhausts/);
      // Its only JSON-LD sits inside an unterminated attribute quote: browsers do not see it
      // either, so it must not count as structured data.
      assert.equal(signal(r, "structured.jsonld").status, "fail");
      assert.ok(r.score > 0 && r.score < 75, `score ${r.score}`);
    });

    await t.step("a redirect chain is followed and recorded", async () => {
      const { record } = await scan(env, "good-redirect.test");
      assert.equal(record.status, "ok");
      assert.equal(record.domain, "good-redirect.test");
      const s = signal(record.result!, "technical.status");
      assert.ok(
        s.evidence.some((e) => /^301 https:\/\/good-redirect\.test\/ -> /.test(e)),
        s.evidence.join("|"),
      );
      assert.ok(s.evidence.some((e) => /www\.good-redirect\.test/.test(e)));
    });

    await t.step("sites that cannot be fetched fail with result null, never a score", async () => {
      for (
        const [host, reason] of [
          ["redirect-loop.test", /redirects/],
          ["redirect-private.test", /not public/],
          ["down.test", /HTTP 503/],
        ] as const
      ) {
        const { record, failure } = await scan(env, host);
        assert.equal(record.status, "failed", host);
        assert.equal(record.result, null);
        assert.equal(record.offSite, null);
        assert.match(failure ?? "", reason);
      }
      assert.ok(
        !env.sites.requests.some((r) => r.host === "127.0.0.1"),
        "the redirect to a private address was never followed",
      );
    });
  } finally {
    await env.close();
  }
});

Deno.test("[scan] a body that drips forever ends the scan at its deadline", async () => {
  const env = await startScanEnv(FOUND_EVERYWHERE, {
    SCAN_TIMEOUT_MS: "2500",
    REQUEST_TIMEOUT_MS: "1500",
  });
  try {
    // slow.test drips one byte a second forever: a scan that ends at all was ended by a deadline,
    // and its failure says so (no reading of the time it took: a loaded machine runs late).
    const { record, failure } = await scan(env, "slow.test");
    assert.equal(record.status, "failed");
    assert.match(failure ?? "", /time|abort/i);
  } finally {
    await env.close();
  }
});

Deno.test("[scan] off-site services that fail make those checks unknown, never not_found", async () => {
  const env = await startScanEnv({
    wikidata: { fail: "500" },
    wikipedia: { fail: "invalid_json" },
    commonCrawl: { fail: "hang" },
  }, { OFFSITE_TIMEOUT_MS: "400" });
  try {
    const t0 = performance.now();
    const { record } = await scan(env, "good.test");
    assert.ok(performance.now() - t0 < 3000, "a hanging service does not hold the scan");
    assert.equal(record.status, "ok");
    assert.equal(record.offSite?.wikidata.status, "unknown");
    assert.equal(record.offSite?.wikipedia.status, "unknown");
    assert.equal(record.offSite?.commonCrawl.status, "unknown");
    const r = record.result!;
    for (const id of ["trust.wikidata", "trust.wikipedia", "trust.common_crawl"]) {
      const s = signal(r, id);
      assert.equal(s.status, "unknown");
      assert.equal(s.maxPoints, 0, "unobservable signals leave the denominator");
    }
    assert.ok(
      !r.topIssues.some((i) => i.id.startsWith("trust.wiki") || i.id === "trust.common_crawl"),
    );
    assert.ok(r.score >= 90, `score ${r.score} is not punished for our failed lookups`);
  } finally {
    await env.close();
  }
});

Deno.test("[scan] a site missing from Wikidata and Common Crawl gets fixes, not a cap", async () => {
  const env = await startScanEnv({});
  try {
    const { record } = await scan(env, "good.test");
    assert.equal(record.offSite?.wikidata.status, "not_found");
    assert.equal(record.offSite?.commonCrawl.status, "not_found");
    const r = record.result!;
    assert.equal(signal(r, "trust.wikidata").status, "warn");
    assert.match(issue(r, "trust.wikidata").fix.how, /P856/);
    assert.ok(r.score >= 85, `score ${r.score}`);
  } finally {
    await env.close();
  }
});
