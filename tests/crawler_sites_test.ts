/**
 * What crawlers are told and what they really get, end to end: real scans of the fixture sites of
 * tests/fixtures/crawler_sites.ts through the guarded fetcher (off-site lookups pointed at nothing).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { type Result, ScanRecordSchema, type Signal } from "../lib/engines/visibility/record.ts";
import { probedCrawlers } from "../lib/engines/visibility/edge_probe.ts";
import { type CrawlerSites, startCrawlerSites } from "./fixtures/crawler_sites.ts";

const NOW = new Date("2026-11-26T12:00:00Z");

async function scan(sites: CrawlerSites, host: string, pages = 1) {
  const config = loadConfig({
    SCAN_RESOLVE: sites.scanResolve,
    // Off-site lookups go nowhere (a loopback address the guard refuses): they read "unknown".
    WIKIDATA_API_URL: "http://127.0.0.1:9/w/api.php",
    WIKIPEDIA_API_URL: "http://127.0.0.1:9/w/api.php",
    COMMONCRAWL_INDEX_URL: "http://127.0.0.1:9/collinfo.json",
    SCAN_TIMEOUT_MS: "8000",
    REQUEST_TIMEOUT_MS: "3000",
    OFFSITE_TIMEOUT_MS: "500",
  });
  const outcome = await scanSite(host, { config, now: () => NOW, pages });
  ScanRecordSchema.parse(outcome.record);
  return outcome;
}

function signal(result: Result, id: string): Signal {
  const s = result.pillars.flatMap((p) => p.signals).find((x) => x.id === id);
  assert.ok(s, `signal ${id}`);
  return s;
}

Deno.test("[crawler sites] what crawlers are told and what they get, on fixture sites", async (t) => {
  const sites = startCrawlerSites();
  try {
    await t.step(
      "a Cloudflare-style Content-Signal is read per purpose, never scored",
      async () => {
        const r = (await scan(sites, "signals.test")).record.result!;
        const s = signal(r, "access.ai_preferences");
        assert.equal(s.status, "info");
        assert.equal(s.maxPoints, 0);
        assert.ok(s.evidence.includes("AI training: no"), s.evidence.join(" | "));
        assert.ok(s.evidence.includes("search (links and short excerpts): yes"));
        assert.ok(
          s.evidence.some((e) =>
            /^contradiction: AI training is declared "no" for .*ClaudeBot/.test(e)
          ),
        );
      },
    );

    await t.step(
      "the aipref Content-Usage header and a path-scoped robots.txt rule are read",
      async () => {
        const r = (await scan(sites, "aipref.test")).record.result!;
        const s = signal(r, "access.ai_preferences");
        assert.ok(s.evidence.includes("AI training: no"), s.evidence.join(" | "));
        assert.ok(s.evidence.includes("Content-Usage header: training no"));
        assert.ok(s.evidence.some((e) => /under \/blog\/: training yes$/.test(e)));
      },
    );

    await t.step(
      "an edge refusing two AI user-agents with 403 and one with a challenge is named, politely probed",
      async () => {
        const before = sites.requests.length;
        const r = (await scan(sites, "edge-mixed.test")).record.result!;
        const s = signal(r, "access.edge");
        assert.equal(s.status, "warn");
        assert.equal(s.gate, null, "Googlebot, Bingbot, OAI-SearchBot still get the page");
        const refused = s.crawlers!.filter((c) => c.edgeRefused).map((c) => c.token).sort();
        assert.deepEqual(refused, ["ChatGPT-User", "Claude-SearchBot", "Perplexity-User"]);
        assert.equal(
          s.crawlers!.find((c) => c.token === "Claude-SearchBot")!.edge,
          "a challenge page (HTTP 403)",
        );
        assert.match(s.detail, /scanner's address/);
        const mine = sites.requests.slice(before).filter((q) => q.host === "edge-mixed.test");
        const home = mine.filter((q) => q.path === "/");
        // Our own fetch, our request for a Markdown version, a browser's and one per probed
        // crawler: each User-Agent asks once, ours twice.
        assert.equal(home.length, 3 + probedCrawlers().length);
        assert.equal(new Set(home.map((q) => q.userAgent)).size, home.length - 1);
        assert.ok(mine.every((q) => q.inFlight <= 2), "never more than 2 requests in flight");
      },
    );

    await t.step(
      "a site refusing every User-Agent, a browser's too, is said to refuse the scanner",
      async () => {
        const { record, failure } = await scan(sites, "blocks-all.test");
        assert.equal(record.status, "failed");
        assert.match(failure ?? "", /refused our scanner/);
        assert.match(failure ?? "", /says nothing about AI crawlers/);
      },
    );

    await t.step(
      "llms.txt v2: a subpath llms.txt found through rel=describedby is credited",
      async () => {
        const r = (await scan(sites, "llms-v2.test", 5)).record.result!;
        const s = signal(r, "discovery.llms_txt");
        assert.equal(s.status, "warn", s.detail);
        assert.ok(s.points >= 0.5 && s.points < 1, `${s.points}`);
        assert.match(s.detail, /\/docs\/llms\.txt covers the pages under \/docs\//);
        assert.ok(
          s.evidence.includes("/docs/intro: markdown version https://llms-v2.test/docs/intro.md"),
          s.evidence.join(" | "),
        );
        assert.ok(
          s.evidence.some((e) =>
            /^https:\/\/llms-v2\.test\/docs\/llms\.txt \(covers \/docs\/, found via rel="describedby" on \/docs\/(intro|setup)\): valid$/
              .test(e)
          ),
          s.evidence.join(" | "),
        );
      },
    );

    await t.step("two X-Robots-Tag lines are read each on its own", async () => {
      const r = (await scan(sites, "xrt-lines.test")).record.result!;
      const s = signal(r, "access.indexing");
      assert.equal(s.status, "fail");
      assert.deepEqual(s.gate, { id: "noindex", cap: 25 });
      assert.ok(s.evidence.includes("X-Robots-Tag header: noindex"), s.evidence.join(" | "));
    });
  } finally {
    await sites.close();
  }
});
