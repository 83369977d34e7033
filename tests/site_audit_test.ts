/**
 * The site audit (issue 19) against fixture sites: politeness (the fixture server counts requests
 * in flight and records who asked for what; the Crawl-delay is read on the scan's injected clock),
 * the site-level verdicts, the page table in the record, the report page, the CLI's --pages and the
 * MCP summary.
 * The pure parts (sampling, Crawl-delay, the 2-in-flight fetcher): site_audit_sample_test.ts.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { type Pillar, ScanRecordSchema, type Signal } from "../lib/engines/visibility/record.ts";
import { pathShape } from "../lib/engines/visibility/audit/sample.ts";
import { sampledPages } from "../lib/engines/visibility/audit/format_pages.ts";
import { summarise } from "../lib/features/visibility/mcp.ts";
import { renderToString } from "preact-render-to-string";
import { PagesTable } from "../lib/features/visibility/views/pages_table.tsx";
import { type AuditSites, MIXED_CRAWL_DELAY_S, startAuditSites } from "./fixtures/audit_sites.ts";
import { startFakeOffSite } from "./fixtures/offsite_server.ts";
import { assertSpaced, sendLog } from "./helpers/send_log.ts";

const STEP = { sanitizeOps: false, sanitizeResources: false } as const;
const FIXED_NOW = () => new Date("2026-06-01T12:00:00Z");

async function auditEnv(extra: Record<string, string> = {}, delayMs = 0) {
  const sites = startAuditSites({ delayMs });
  const off = await startFakeOffSite({});
  const env: Record<string, string> = {
    SCAN_RESOLVE: [
      sites.scanResolve,
      ...[...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
    ].join(","),
    WIKIDATA_API_URL: off.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
    SCAN_TIMEOUT_MS: "20000",
    REQUEST_TIMEOUT_MS: "1500",
    OFFSITE_TIMEOUT_MS: "1500",
    ...extra,
  };
  return {
    sites,
    env,
    config: loadConfig(env),
    close: async () => {
      await off.close();
      await sites.close();
    },
  };
}

const signals = (pillars: Pillar[]): Signal[] => pillars.flatMap((p) => p.signals);
function sig(pillars: Pillar[], id: string): Signal {
  const s = signals(pillars).find((x) => x.id === id);
  assert.ok(s, `signal ${id} missing: ${signals(pillars).map((x) => x.id).join(", ")}`);
  return s;
}

/** Requests from our own crawler to a host, snapshot files aside. */
function pageRequests(sites: AuditSites, host: string) {
  return sites.requests.filter((r) =>
    r.host === host && r.userAgent.includes("AIVisibilityBot") &&
    !/^\/(robots\.txt|sitemap\.xml|llms(-full)?\.txt)$/.test(r.path) && r.path !== "/"
  );
}

Deno.test(
  "site audit - mixed.test: per-path robots, templates, noindex and slow pages, Crawl-delay, verdicts and table",
  STEP,
  async (t) => {
    const env = await auditEnv();
    const log = sendLog(env.config);
    try {
      const outcome = await scanSite("mixed.test", {
        config: env.config,
        now: FIXED_NOW,
        fetcher: log.fetcher,
        politeClock: log.clock,
      });
      const record = ScanRecordSchema.parse(JSON.parse(JSON.stringify(outcome.record)));
      assert.deepEqual(Object.keys(record).sort(), [
        "domain",
        "offSite",
        "result",
        "scannedAt",
        "status",
      ]);
      const pillars = record.result!.pillars;
      const pages = sampledPages(record)!;
      const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));

      await t.step("the sample: 10 pages, home first, About and Contact, several templates", () => {
        assert.equal(pages.length, 10);
        assert.equal(pages[0].type, "home");
        assert.equal(byPath.get("/about")?.type, "about");
        assert.equal(byPath.get("/contact")?.type, "contact");
        const types = new Set(pages.map((p) => p.type));
        for (const t of ["article", "product", "docs"]) assert.ok(types.has(t as never), t);
        assert.ok(!pages.some((p) => /login|account|search|utm_|\.pdf/.test(p.url)));
      });

      await t.step("the page table names each page's failures", () => {
        assert.equal(byPath.get("/private/secret")?.state, "robots");
        assert.equal(byPath.get("/docs/slow")?.state, "error", "the slow page timed out");
        assert.ok(byPath.get("/docs/old")?.fails.includes("noindex"));
        const product = pages.find((p) => p.type === "product")!;
        assert.ok(product.fails.includes("JS shell"), product.fails.join());
        const articles = pages.filter((p) => p.type === "article");
        assert.ok(articles.length >= 2);
        for (const a of articles) {
          assert.ok(a.fails.includes("canonical to home"), a.fails.join());
          assert.ok(a.fails.includes("robots.txt blocks PerplexityBot"), a.fails.join());
        }
        assert.ok(byPath.get("/contact")?.fails.includes("duplicate description"));
      });

      await t.step("site-level verdicts", () => {
        const access = sig(pillars, "access.site_pages");
        assert.notEqual(access.status, "pass");
        assert.match(access.detail, /^PerplexityBot may not read \d+ of 10 pages: \/articles\//);
        assert.equal(access.gate, null, "one crawler kept from one section caps nothing");
        assert.ok(access.evidence.includes("OAI-SearchBot: may read 8 of 10 pages"));
        assert.match(
          sig(pillars, "content.site_server_text").detail,
          /^1 of \d+ pages read are JavaScript shells.*\/products\/p/,
        );
        assert.match(
          sig(pillars, "trust.site_author_dates").detail,
          /^\d+ of \d+ article pages name no author: \/articles\/a/,
        );
        const canon = sig(pillars, "technical.site_canonicals");
        assert.equal(canon.status, "fail");
        assert.match(canon.detail, /point their canonical at the home page: \/articles\/a/);
        const sitemap = sig(pillars, "discovery.site_sitemap_urls");
        assert.match(sitemap.detail, /1 of \d+ sitemap URLs are noindex: \/docs\/old/);
        // The slow page did not answer in time: not observed, so not counted against the site.
        assert.doesNotMatch(sitemap.detail, /docs\/slow/);
        assert.match(
          sig(pillars, "discovery.site_llms_links").detail,
          /1 of 3 llms\.txt links checked .*gone-page/,
        );
        assert.match(sig(pillars, "technical.site_titles").detail, /share their description/);
        const note = sig(pillars, "discovery.site_sample");
        assert.equal(note.status, "info");
        assert.match(note.detail, /^Read 8 of 10 sampled pages/);
        assert.match(note.detail, /0\.2 s apart, as robots\.txt's Crawl-delay asks/);
        // One fix per template: the article pages' canonical and byline are one change of their
        // template, named in words; PerplexityBot's group is the robots.txt fix, which leaves the
        // private area the * group closes to everyone as it is.
        const issues = record.result!.topIssues;
        const article = issues.find((i) => i.fix.cause?.key === "template:article")!;
        // The home page's byline check asks for the same line: one fix with it.
        assert.deepEqual(article.resolves!.map((r) => r.id).sort(), [
          "technical.site_canonicals",
          "trust.author_dates",
          "trust.site_author_dates",
        ]);
        // mixed.test shows no template engine: the pages themselves, each given its own canonical.
        assert.match(article.title, /^Update your article pages \(such as \/articles\/a\d\)$/);
        assert.match(
          article.fix.how,
          /Paste into the <head> of https:\/\/mixed\.test\/articles\/a\d/,
        );
        assert.match(
          article.fix.how,
          /<link rel="canonical" href="https:\/\/mixed\.test\/articles\/a\d">/,
        );
        const robots = issues.find((i) => i.fix.cause?.key === "robots.txt:ai-access")!;
        assert.match(robots.title, /^Allow PerplexityBot on your article pages/);
        assert.match(robots.fix.how, /leaves it as it is/);
        assert.equal(new Set(issues.map((i) => i.fix.cause?.key ?? i.id)).size, issues.length);
      });

      await t.step(
        "politeness: two in flight, robots.txt obeyed, the Crawl-delay kept as sent",
        () => {
          assert.ok((env.sites.maxInFlight.get("mixed.test") ?? 0) <= 2, "at most 2 in flight");
          assert.ok(
            !env.sites.requests.some((r) =>
              r.path.startsWith("/private/") && r.userAgent.includes("AIVisibilityBot")
            ),
            "robots.txt's Disallow for our crawler is obeyed",
          );
          const reqs = pageRequests(env.sites, "mixed.test");
          assert.ok(reqs.length >= 8, `${reqs.length} page requests`);
          // The scanner starts each page request the Crawl-delay after the one before, on the clock
          // it keeps the delay by (tests/helpers/send_log.ts): no reading of the machine's time.
          const sent = log.sent.filter((r) =>
            r.host === "mixed.test" && reqs.some((q) => q.path === r.path)
          );
          assert.equal(sent.length, reqs.length, "every page request the site saw was sent once");
          assertSpaced(sent, MIXED_CRAWL_DELAY_S * 1000);
        },
      );

      await t.step("the report page, the MCP summary and the CLI show the same table", async () => {
        const vnode = PagesTable({ record });
        assert.ok(vnode);
        const html = renderToString(vnode);
        assert.match(html, /Pages sampled across the site/);
        assert.match(
          html,
          /\/private\/secret<\/th><td>page<\/td><td>not fetched \(robots\.txt\)/,
        );
        assert.match(html, /canonical to home/);
        assert.ok(html.length < 4 * 1024, `a ${html.length}-byte table for 10 pages`);
        const text = summarise(record);
        assert.match(text, /Sampled pages \(10, the checks each fails\):/);
        assert.match(text, /\/docs\/old\s+docs\s+200\s+noindex/);
        const cli = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            new URL("../lib/app/cli.ts", import.meta.url).pathname,
            "mixed.test",
            "--pages",
            "4",
          ],
          env: { ...env.env, NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const out = new TextDecoder().decode(cli.stdout);
        assert.equal(cli.code, 0, new TextDecoder().decode(cli.stderr));
        assert.match(out, /Sampled pages\nPage\s+Type\s+Status\s+Fails\n\/\s+home\s+200/);
        assert.equal(
          out.split("Sampled pages\n")[1].trim().split("\n").length,
          5,
          "4 pages + head",
        );
        const bad = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            new URL("../lib/app/cli.ts", import.meta.url).pathname,
            "x.test",
            "--pages",
            "51",
          ],
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(bad.code, 2);
      });
    } finally {
      await log.fetcher.close();
      await env.close();
    }
  },
);

Deno.test(
  "site audit - a Crawl-delay above the bound means fewer pages, and the report says so",
  STEP,
  async () => {
    const env = await auditEnv();
    try {
      const { record } = await scanSite("delay.test", { config: env.config, now: FIXED_NOW });
      const note = sig(record.result!.pillars, "discovery.site_sample");
      assert.match(
        note.detail,
        /Crawl-delay of 60 s, above the bound we wait, so only the home page/,
      );
      assert.equal(pageRequests(env.sites, "delay.test").length, 0, "no page beyond the home page");
      assert.ok(sampledPages(record)!.slice(1).every((p) => p.state === "budget"));
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "site audit - the time budget ends the crawl and the report says how many pages it read",
  STEP,
  async () => {
    // A 0.2 s Crawl-delay makes 9 pages take at least 1.6 s: a 0.6 s budget cannot hold them.
    const env = await auditEnv({ AUDIT_BUDGET_MS: "600" });
    try {
      const { record } = await scanSite("mixed.test", { config: env.config, now: FIXED_NOW });
      const note = sig(record.result!.pillars, "discovery.site_sample");
      const read = sampledPages(record)!.filter((p) => p.state === "read").length;
      assert.ok(read < 8, `${read} pages read`);
      assert.match(note.detail, new RegExp(`^Read ${read} of 10 sampled pages`));
      assert.match(
        note.detail,
        /time budget \(0\.6 s\) ran out: the report describes the \d+ pages/,
      );
      assert.ok(sampledPages(record)!.some((p) => p.state === "budget"));
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "site audit - sections closed to every AI search crawler cap the score, not only a closed home page",
  STEP,
  async () => {
    const env = await auditEnv();
    try {
      const { record } = await scanSite("hidden.test", { config: env.config, now: FIXED_NOW });
      const r = record.result!;
      assert.deepEqual(sig(r.pillars, "access.site_pages").gate, {
        id: "pages_blocked_for_ai_search",
        cap: 35,
      });
      assert.ok(r.score <= 35);
      assert.match(
        r.label,
        /capped at 35 because most of the site.s pages are closed to AI search crawlers/,
      );
      assert.equal(r.topIssues[0].id, "access.site_pages");
      assert.equal(pageRequests(env.sites, "hidden.test").length, 0, "our crawler obeys * too");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "site audit - many.test: 50 pages, 2 in flight at most, every template, --pages 1 reads the home page only",
  STEP,
  async () => {
    // Every answer 30 ms late, so two requests in flight overlap where the server can see them.
    const env = await auditEnv({ AUDIT_PAGES: "50" }, 30);
    try {
      const { record, audit } = await scanSite("many.test", { config: env.config, now: FIXED_NOW });
      const pages = sampledPages(record)!;
      assert.equal(pages.length, 50);
      assert.equal(pages.filter((p) => p.state === "read").length, 50);
      assert.equal(env.sites.maxInFlight.get("many.test"), 2);
      assert.equal(audit?.maxInFlight, 2);
      assert.deepEqual(
        new Set(pages.slice(1, 5).map((p) => pathShape(p.url))),
        new Set(["/blog/*", "/shop/*", "/docs/*", "/team/*"]),
      );
      assert.equal(sig(record.result!.pillars, "access.site_pages").status, "pass");
      const before = env.sites.requests.length;
      const single = await scanSite("many.test", { config: env.config, now: FIXED_NOW, pages: 1 });
      assert.equal(sampledPages(single.record), null, "the home-page scan as it was");
      assert.ok(!signals(single.record.result!.pillars).some((s) => s.id.includes(".site_")));
      assert.equal(
        env.sites.requests.slice(before).filter((r) => /item-/.test(r.path)).length,
        0,
      );
    } finally {
      await env.close();
    }
  },
);
