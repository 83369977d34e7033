/**
 * The site audit (issue 19): sampling, politeness (asserted by the fixture server, which counts
 * requests in flight and records who asked for what and when), the site-level verdicts, the page
 * table in the record, the CLI's --pages and the MCP summary.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/config.ts";
import { scanSite } from "../lib/visibility/scan.ts";
import { type Pillar, ScanRecordSchema, type Signal } from "../lib/visibility/record.ts";
import { collectCandidates, pathShape, pickSample } from "../lib/visibility/audit/sample.ts";
import { crawlDelayFor, politeFetcher } from "../lib/visibility/audit/polite.ts";
import { sampledPages } from "../lib/visibility/audit/format_pages.ts";
import { summarise } from "../lib/mcp/visibility.ts";
import { renderToString } from "preact-render-to-string";
import { PagesTable } from "../lib/ui/pages_table.tsx";
import { extractPageFacts } from "../lib/html/page_facts.ts";
import type { FetchResult, GuardedFetcher } from "../lib/net/types.ts";
import { type AuditSites, MIXED_CRAWL_DELAY_S, startAuditSites } from "./fixtures/audit_sites.ts";
import { startFakeOffSite } from "./fixtures/offsite_server.ts";

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

Deno.test("audit sample - spread across templates, About and Contact first, private and tracking URLs left out", () => {
  const home = "https://s.test/";
  const sitemap = `<urlset>${
    Array.from({ length: 12 }, (_, i) =>
      `<url><loc>https://s.test/blog/post-${i}</loc><lastmod>2026-01-${
        String(i + 1).padStart(2, "0")
      }</lastmod></url>`).join("")
  }<url><loc>https://s.test/products/mug</loc><lastmod>2025-01-01</lastmod></url>
  <url><loc>https://s.test/docs/setup</loc></url>
  <url><loc>https://other.test/blog/x</loc></url>
  <url><loc>https://s.test/account/orders</loc></url>
  <url><loc>https://s.test/guide.pdf</loc></url></urlset>`;
  const facts = extractPageFacts(
    `<html><body><nav><a href="/about-us">About us</a><a href="/contact">Contact</a>
    <a href="/login">Log in</a><a href="/search?q=x">Search</a><a href="/pricing?utm_source=nav">P</a>
    <a href="/pricing">Pricing</a></nav></body></html>`,
    home,
  );
  const { candidates, total } = collectCandidates([sitemap], facts, home);
  assert.equal(total, candidates.length);
  const urls = candidates.map((c) => c.url);
  for (const bad of ["login", "search", "account", "utm_source", "guide.pdf", "other.test"]) {
    assert.ok(!urls.some((u) => u.includes(bad)), `${bad} must not be a candidate`);
  }
  const picked = pickSample(candidates, 6).map((c) => new URL(c.url).pathname);
  assert.deepEqual(picked.slice(0, 2), ["/about-us", "/contact"]);
  // The newest post first, then one of each other template before a second post.
  assert.equal(picked[2], "/blog/post-11");
  assert.deepEqual(
    new Set(picked.slice(2).map((p) => pathShape(`https://s.test${p}`))),
    new Set(["/blog/*", "/products/*", "/docs/*", "/*"]),
  );
});

Deno.test("audit sample - a huge sitemap keeps only the newest entries of each template", () => {
  const home = "https://big.test/";
  const body = `<urlset>${
    Array.from({ length: 20_000 }, (_, i) =>
      `<url><loc>https://big.test/${i % 2 ? "news" : "shop"}/item-${i}</loc><lastmod>${
        new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()
      }</lastmod></url>`).join("")
  }</urlset>`;
  const facts = extractPageFacts("<html><body></body></html>", home);
  const { candidates, total } = collectCandidates([body], facts, home);
  assert.equal(total, 20_000);
  assert.equal(candidates.length, 100, "50 per template");
  assert.deepEqual(
    candidates.slice(0, 2).map((c) => new URL(c.url).pathname),
    ["/news/item-19999", "/shop/item-19998"],
  );
});

Deno.test("audit politeness - Crawl-delay for our token or *, and a fetcher that keeps 2 in flight per site", async () => {
  assert.equal(crawlDelayFor("User-agent: *\nCrawl-delay: 3\n", "AIVisibilityBot/0.1"), 3);
  assert.equal(
    crawlDelayFor(
      "User-agent: AIVisibilityBot\nCrawl-delay: 1\n\nUser-agent: *\nCrawl-delay: 9\n",
      "AIVisibilityBot",
    ),
    1,
  );
  assert.equal(crawlDelayFor("User-agent: GPTBot\nCrawl-delay: 9\n", "AIVisibilityBot"), null);
  assert.equal(crawlDelayFor("User-agent: *\nCrawl-delay: soon\n", "AIVisibilityBot"), null);

  let active = 0, peak = 0, other = 0, otherPeak = 0;
  const inner: GuardedFetcher = {
    async fetch(url) {
      const site = new URL(url).hostname.endsWith("site.test");
      if (site) peak = Math.max(peak, ++active);
      else otherPeak = Math.max(otherPeak, ++other);
      await new Promise((r) => setTimeout(r, 5));
      if (site) active--;
      else other--;
      return { url, finalUrl: url, status: 200 } as FetchResult;
    },
    close: () => Promise.resolve(),
  };
  const polite = politeFetcher(inner, "site.test");
  await Promise.all([
    ...Array.from({ length: 8 }, (_, i) => polite.fetch(`https://site.test/${i}`)),
    ...Array.from({ length: 2 }, (_, i) => polite.fetch(`https://www.site.test/w${i}`)),
    ...Array.from({ length: 4 }, (_, i) => polite.fetch(`https://wikidata.test/${i}`)),
  ]);
  assert.equal(peak, 2, "the site (apex and www.) sees at most 2 at once");
  assert.equal(polite.maxInFlight, 2);
  assert.equal(otherPeak, 4, "other hosts (off-site lookups) are not held back");
  // An aborted waiter leaves the queue without being sent.
  const ac = new AbortController();
  polite.setDelay(50);
  const first = polite.fetch("https://site.test/a");
  const waiting = polite.fetch("https://site.test/b", { signal: ac.signal });
  ac.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  await first;
});

Deno.test(
  "site audit - mixed.test: per-path robots, templates, noindex and slow pages, Crawl-delay, verdicts and table",
  STEP,
  async (t) => {
    const env = await auditEnv();
    try {
      const outcome = await scanSite("mixed.test", { config: env.config, now: FIXED_NOW });
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
        assert.match(sitemap.detail, /do not answer 200: \/docs\/slow/);
        assert.match(
          sig(pillars, "discovery.site_llms_links").detail,
          /1 of 3 llms\.txt links checked .*gone-page/,
        );
        assert.match(sig(pillars, "technical.site_titles").detail, /share their description/);
        const note = sig(pillars, "discovery.site_sample");
        assert.equal(note.status, "info");
        assert.match(note.detail, /^Read 8 of 10 sampled pages/);
        assert.match(note.detail, /0\.2 s apart, as robots\.txt's Crawl-delay asks/);
        assert.ok(
          record.result!.topIssues.some((i) =>
            i.title.includes("canonical") && /template/.test(i.fix.how)
          ),
          "the canonical fix addresses the template",
        );
      });

      await t.step("politeness, as the fixture server saw it", () => {
        assert.ok((env.sites.maxInFlight.get("mixed.test") ?? 0) <= 2, "at most 2 in flight");
        assert.ok(
          !env.sites.requests.some((r) =>
            r.path.startsWith("/private/") && r.userAgent.includes("AIVisibilityBot")
          ),
          "robots.txt's Disallow for our crawler is obeyed",
        );
        const reqs = pageRequests(env.sites, "mixed.test");
        assert.ok(reqs.length >= 8, `${reqs.length} page requests`);
        for (let i = 1; i < reqs.length; i++) {
          const gap = reqs[i].at - reqs[i - 1].at;
          assert.ok(
            gap >= MIXED_CRAWL_DELAY_S * 1000 * 0.9,
            `gap ${gap} ms before ${reqs[i].path}`,
          );
        }
      });

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
            new URL("../lib/cli.ts", import.meta.url).pathname,
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
            new URL("../lib/cli.ts", import.meta.url).pathname,
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
      assert.match(r.label, /capped at 35: pages blocked for ai search/);
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
