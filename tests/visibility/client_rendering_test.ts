/**
 * The JavaScript-shell rule (lib/engines/visibility/client_rendering.ts), one rule for the home page and
 * the sampled pages: little text AND signs of client rendering make a shell; a short page without
 * them is thin, a warning with its own words and never a gate. Then two fixture sites scanned end
 * to end (tests/fixtures/rendering_pages.ts): a short static business site gets no gate and no
 * JavaScript message; a client-rendered app gets both gates, each naming its evidence, and the
 * report says what lifts them.
 */
import assert from "node:assert/strict";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import { LITTLE_TEXT_WORDS, readRendering } from "../../lib/engines/visibility/client_rendering.ts";
import { loadConfig } from "../../lib/kit/config.ts";
import { scanSite } from "../../lib/engines/visibility/scan.ts";
import type { Result, Signal } from "../../lib/engines/visibility/record.ts";
import { capOf } from "../../lib/engines/visibility/score.ts";
import { gateText } from "../../lib/engines/visibility/learn.ts";
import { formatReport } from "../../lib/engines/visibility/format.ts";
import { summarise } from "../../lib/features/visibility/mcp.ts";
import { sampledPages } from "../../lib/engines/visibility/audit/format_pages.ts";
import { startAuditSites } from "../fixtures/audit_sites.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";

const rendering = (body: string, head = "") =>
  readRendering(
    extractPageFacts(
      `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`,
      "https://r.example/",
    ),
  );

const words = (n: number) => `<p>${"word ".repeat(n)}</p>`;

Deno.test("[rendering] a short page without signs of client rendering is thin, not a shell", () => {
  const r = rendering(words(45));
  assert.equal(r.kind, "thin");
  assert.deepEqual(r.signs, []);
  assert.equal(rendering(words(LITTLE_TEXT_WORDS)).kind, "text");
  // A static page with an image fallback in <noscript> (no words) is still just short.
  assert.equal(rendering(`${words(20)}<noscript><img src="/p.gif"></noscript>`).kind, "thin");
});

Deno.test("[rendering] scripts from other sites (an analytics tag, a consent banner) are not the page's bundles: a short page with them is thin", () => {
  const tags = '<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>' +
    '<script src="https://cdn.consent-vendor.example/banner.js"></script>';
  const r = rendering(words(45), tags);
  assert.equal(r.kind, "thin");
  assert.deepEqual(r.signs, []);
  // The site's own script, relative or on a subdomain of its site, is a bundle: with little text,
  // a shell, and the sign says so.
  for (const src of ["/assets/app.js", "https://static.r.example/app.js"]) {
    const own = rendering(words(45), `${tags}<script src="${src}"></script>`);
    assert.equal(own.kind, "shell", src);
    assert.deepEqual(own.signs, ["1 script bundle from the site itself (<script src>)"]);
  }
});

Deno.test("[rendering] each sign of client rendering with little text makes a shell, and is named", () => {
  const cases: [string, string, string, RegExp][] = [
    ["empty mount node", '<div id="root"></div>', "", /empty app mount node/],
    ["#app", '<div id="app"></div>', "", /empty app mount node/],
    ["#__next", '<div id="__next"></div>', "", /empty app mount node/],
    ["script bundle", words(10), '<script src="/assets/index.js"></script>', /1 script bundle/],
    [
      "noscript text",
      "<noscript>You need to enable JavaScript to run this app.</noscript>",
      "",
      /words of <noscript> text/,
    ],
    [
      "Next.js hydration data",
      '<div id="page"></div>',
      '<script id="__NEXT_DATA__" type="application/json">{}</script>',
      /framework marker: __NEXT_DATA__/,
    ],
    ["Nuxt state", "", "<script>window.__NUXT__={}</script>", /framework marker: __NUXT__/],
    ["Angular", '<app-root ng-version="17.0.0"></app-root>', "", /framework marker: ng-version/],
    ["React root", '<div data-reactroot=""></div>', "", /framework marker: data-reactroot/],
  ];
  for (const [name, body, head, sign] of cases) {
    const r = rendering(body, head);
    assert.equal(r.kind, "shell", name);
    assert.ok(r.signs.some((s) => sign.test(s)), `${name}: ${r.signs.join("; ")}`);
  }
  // Enough text is text, whatever scripts the page also loads.
  assert.equal(
    rendering(`<div id="root">${words(300)}</div>`, '<script src="/a.js"></script>').kind,
    "text",
  );
});

async function scanFixtures(hosts: string[]): Promise<Map<string, Result>> {
  const sites = startAuditSites();
  const off = await startFakeOffSite({});
  const config = loadConfig({
    SCAN_RESOLVE: [
      sites.scanResolve,
      ...[...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
    ].join(","),
    WIKIDATA_API_URL: off.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
    SCAN_TIMEOUT_MS: "20000",
    REQUEST_TIMEOUT_MS: "2000",
    OFFSITE_TIMEOUT_MS: "1500",
  });
  const out = new Map<string, Result>();
  try {
    for (const host of hosts) {
      const { record } = await scanSite(host, {
        config,
        now: () => new Date("2026-11-26T12:00:00Z"),
      });
      assert.equal(record.status, "ok", host);
      out.set(host, record.result!);
      out.set(`${host}#record`, record as unknown as Result);
    }
  } finally {
    await off.close();
    await sites.close();
  }
  return out;
}

const signalsOf = (r: Result): Signal[] => r.pillars.flatMap((p) => p.signals);
const sig = (r: Result, id: string) => signalsOf(r).find((s) => s.id === id)!;

Deno.test({
  name:
    "[rendering] a small static business site (45-word About, short Contact, no scripts): no gate, no JavaScript message; an SPA: both gates, each with its evidence",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const results = await scanFixtures(["static-biz.test", "spa.test"]);
    const biz = results.get("static-biz.test")!;
    // No gate anywhere, so no cap in the label and nothing "critical".
    assert.deepEqual(signalsOf(biz).filter((s) => s.gate).map((s) => s.id), []);
    assert.equal(capOf(biz), null);
    assert.doesNotMatch(biz.label, /capped/);
    assert.ok(biz.topIssues.every((i) => i.impact !== "critical"));
    // No finding (nor fix) talks about JavaScript: the pages are short, not client-rendered.
    for (const s of signalsOf(biz).filter((s) => s.status === "warn" || s.status === "fail")) {
      assert.doesNotMatch(s.detail, /javascript/i, `${s.id}: ${s.detail}`);
    }
    for (const i of biz.topIssues) {
      assert.doesNotMatch(`${i.title} ${i.fix.why} ${i.fix.how}`, /javascript|render/i, i.id);
    }
    const site = sig(biz, "content.site_server_text");
    assert.equal(site.status, "warn", site.detail);
    assert.match(site.detail, /^2 of 3 pages read carry under 80 words of text/);
    assert.ok(
      site.evidence.some((e) => /^\/about: \d\d words, no sign of client rendering$/.test(e)),
      site.evidence.join("; "),
    );
    const record = results.get("static-biz.test#record") as unknown as Parameters<
      typeof sampledPages
    >[0];
    const rows = sampledPages(record)!;
    assert.deepEqual(
      rows.filter((p) => p.fails.includes("thin text")).map((p) => new URL(p.url).pathname).sort(),
      ["/about", "/contact"],
    );
    assert.ok(!rows.some((p) => p.fails.includes("JS shell")));

    const app = results.get("spa.test")!;
    const home = sig(app, "content.server_text");
    assert.deepEqual(home.gate, { id: "js_only_content", cap: 40 });
    for (const sign of [/empty app mount node/, /1 script bundle/, /words of <noscript> text/]) {
      assert.match(home.detail, sign);
      assert.ok(home.evidence.some((e) => sign.test(e)), `${sign}: ${home.evidence.join("; ")}`);
    }
    const pages = sig(app, "content.site_server_text");
    assert.deepEqual(pages.gate, { id: "js_only_pages", cap: 40 });
    assert.match(pages.detail, /are JavaScript shells/);
    assert.match(pages.detail, /The evidence on \/\S*: 0 words; /);
    // Every shell page names its own evidence, the hydration-data-only page included.
    assert.ok(
      pages.evidence.some((e) =>
        /^\/docs\/start: \d+ words; framework marker: __NEXT_DATA__$/.test(e)
      ),
      pages.evidence.join("\n"),
    );
    assert.ok(pages.evidence.some((e) => /^\/products\/a: 0 words; empty app mount node/.test(e)));
    // The report says what raised the cap and what would lift it (CLI and MCP).
    const cap = capOf(app)!;
    assert.equal(cap.cap, 40);
    const lift = gateText(cap.gateId)!.lift;
    const appRecord = results.get("spa.test#record") as unknown as Parameters<
      typeof formatReport
    >[0];
    const cli = formatReport(appRecord);
    assert.ok(cli.includes(`Evidence: ${cap.evidence.join("; ")}.`), cli);
    assert.ok(cli.includes(`It lifts when: ${lift}`));
    const mcp = summarise(appRecord);
    assert.ok(mcp.includes(`It lifts when: ${lift}`), mcp);
  },
});
