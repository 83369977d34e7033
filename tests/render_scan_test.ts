/**
 * The rendered view through both services' scans: the visibility record's `render` field, the
 * JavaScript-only verdicts judged from rendering when it exists and from the server HTML's signs
 * (and saying so) when it does not, the short static site that is thin and never JavaScript-only,
 * the politeness of a whole rendered scan, and the Schema Markup Generator's JSON-LD "added by
 * JavaScript". Needs /usr/bin/chromium; skipped loudly without it (except the unrendered cases).
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { loadConfig } from "../lib/kit/config.ts";
import { renderExport } from "../lib/engines/export/export.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { summarise as summariseSchema } from "../lib/features/schema/mcp.ts";
import { schemaService } from "../lib/features/schema/service.ts";
import { SchemaResultSections } from "../lib/features/schema/views/schema_report.tsx";
import { scanPage } from "../lib/engines/schema/scan.ts";
import { run as runSchemaScan } from "../lib/features/schema/scanner.ts";
import { SchemaScanRecordSchema } from "../lib/engines/structured/record.ts";
import { sampledPages } from "../lib/engines/visibility/audit/format_pages.ts";
import {
  type ScanRecord,
  ScanRecordSchema,
  type Signal,
} from "../lib/engines/visibility/record.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { hasChromium } from "./e2e/browser.ts";
import {
  DELAY_SCRIPTS,
  HOSTILE_TEXT,
  INJECTED_PRODUCT,
  POLITE_SCRIPTS,
  type RenderRequest,
} from "./fixtures/render_sites.ts";
import { startRenderScanEnv } from "./helpers/render_env.ts";
import { runCli } from "./helpers/scan_env.ts";

const STEP = { sanitizeOps: false, sanitizeResources: false } as const;
const FIXED_NOW = () => new Date("2026-11-26T12:00:00Z");
const ignore = !hasChromium();
if (ignore) console.warn("rendered scan tests skipped: /usr/bin/chromium is not installed");

async function scanEnv() {
  const base = await startRenderScanEnv();
  const scan = async (domain: string, render: boolean) => {
    const target = { ...normaliseTarget(domain), ...(render ? { render: true } : {}) };
    const { record } = await scanSite(target, { config: base.config, now: FIXED_NOW });
    // What the API serves: the record through JSON and its schema.
    return ScanRecordSchema.parse(JSON.parse(JSON.stringify(record)));
  };
  return { ...base, scan };
}

function signal(record: ScanRecord, id: string): Signal {
  const s = record.result!.pillars.flatMap((p) => p.signals).find((x) => x.id === id);
  assert.ok(s, `no signal ${id}`);
  return s;
}

Deno.test({
  name: "rendered scan - a client-rendered SPA: JavaScript-only judged from rendering",
  ignore,
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const record = await env.scan("http://spa.test/", true);
      assert.equal(record.status, "ok");
      assert.equal(record.render?.status, "rendered", record.render?.reason ?? "");
      assert.equal(record.render!.pages[0].verdict, "js_only");
      const s = signal(record, "content.server_text");
      assert.equal(s.status, "fail");
      assert.equal(s.gate?.id, "js_only_content");
      assert.match(s.detail, /rendered in a browser, the page shows \d{3} words/);
      assert.ok(s.evidence.some((e) => /^rendered in a browser: \d+ words after scripts/.test(e)));
      // The record stays small: the view is a few KB whatever the site serves.
      assert.ok(JSON.stringify(record.render).length < 8_000);
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "unrendered scan - the same SPA: judged from the server HTML's signs, and it says so",
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const record = await env.scan("http://spa.test/", false);
      assert.equal(record.render, undefined, "no view when the scan did not ask for one");
      assert.deepEqual(Object.keys(record).sort(), [
        "domain",
        "offSite",
        "result",
        "scannedAt",
        "status",
      ]);
      const s = signal(record, "content.server_text");
      assert.equal(s.gate?.id, "js_only_content");
      assert.match(s.detail, /judged from the server HTML's signs: the page was not rendered/);
      assert.ok(s.evidence.some((e) => /^not rendered: judged from the server HTML/.test(e)));
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "scan - a short static site is thin, never JavaScript-only, rendered or not",
  ...STEP,
  fn: async (t) => {
    const env = await scanEnv();
    try {
      for (const render of ignore ? [false] : [false, true]) {
        await t.step(render ? "rendered" : "not rendered", async () => {
          const record = await env.scan("http://short.test/", render);
          const pages = sampledPages(record)!;
          const about = pages.find((p) => p.url.endsWith("/about"))!;
          assert.equal(about.state, "read");
          assert.ok(!about.fails.includes("JS shell"), about.fails.join());
          const site = signal(record, "content.site_server_text");
          assert.equal(site.gate, null);
          // A thin page is a warning of its own (half its share), never a JavaScript verdict.
          assert.equal(site.status, "warn");
          assert.ok(about.fails.includes("thin text"), about.fails.join());
          assert.ok(
            !record.result!.pillars.flatMap((p) => p.signals).some((x) =>
              x.gate?.id === "js_only_pages" || x.gate?.id === "js_only_content"
            ),
          );
          if (!render) assert.match(site.detail, /and no sign of client rendering/);
          if (render) {
            assert.equal(record.render?.pages.length, 3);
            assert.equal(
              record.render!.pages.find((p) => p.url.endsWith("/about"))?.verdict,
              "thin",
            );
            // The verdict is the rendering's, and the detail and evidence say so.
            assert.match(site.detail, /under 80 words of text in the rendered page too/);
            assert.ok(
              site.evidence.some((e) =>
                /^\/about: \d+ words in the server HTML, \d+ rendered/.test(e)
              ),
              site.evidence.join("; "),
            );
          }
        });
      }
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "rendered scan - the site sees at most 2 requests in flight and robots.txt is obeyed",
  ignore,
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const record = await env.scan("http://polite.test/", true);
      assert.equal(record.render?.pages[0].state, "rendered", record.render?.pages[0].reason ?? "");
      const toSite = env.sites.requests.filter((r) => r.host === "polite.test");
      assert.ok(toSite.length > POLITE_SCRIPTS, String(toSite.length));
      assert.ok(Math.max(...toSite.map((r) => r.inFlight)) <= 2, "more than 2 in flight");
      assert.ok(!toSite.some((r) => r.path.startsWith("/private/")), "robots.txt ignored");
      assert.equal(record.render!.pages[0].requests.refusedKinds["robots.txt"], 1);
    } finally {
      await env.close();
    }
  },
});

/** The site's requests for its scripts: each started at least Crawl-delay after the one before. */
function assertCrawlDelayKept(requests: RenderRequest[], host: string, delayMs: number): void {
  const toSite = requests.filter((r) => r.host === host);
  const first = toSite.findIndex((r) => r.path.startsWith("/js/"));
  assert.ok(first > 0, toSite.map((r) => r.path).join());
  const rendered = toSite.slice(first);
  assert.deepEqual(
    rendered.map((r) => r.path).sort(),
    Array.from({ length: DELAY_SCRIPTS }, (_, i) => `/js/part${i}.js`),
  );
  // Each script's request waited the delay after the site's request before it (the render's
  // document fetch included); one at a time. (A loaded machine only makes the gaps longer.)
  for (let i = first; i < toSite.length; i++) {
    const gap = toSite[i].at - toSite[i - 1].at;
    assert.ok(gap >= delayMs - 50, `${toSite[i].path}: ${Math.round(gap)} ms after the last`);
    assert.equal(toSite[i].inFlight, 1);
  }
}

Deno.test({
  name:
    "rendered scans - the Crawl-delay robots.txt asks is kept between the render's requests; a longer one than the scan waits is not rendered",
  ignore,
  ...STEP,
  fn: async (t) => {
    const env = await scanEnv();
    try {
      await t.step("visibility: Crawl-delay 1 s kept", async () => {
        const record = await env.scan("http://delay.test/", true);
        const home = record.render!.pages[0];
        assert.equal(home.state, "rendered", home.reason ?? "");
        assert.equal(home.verdict, "js_only");
        assertCrawlDelayKept(env.sites.requests, "delay.test", 1000);
      });
      await t.step("visibility: Crawl-delay 60 s, not rendered, and it says why", async () => {
        const record = await env.scan("http://delay60.test/", true);
        assert.equal(record.render!.status, "unavailable");
        assert.match(
          record.render!.reason!,
          /^robots\.txt asks our crawler for a Crawl-delay of 60 s, longer than the 5 s this scanner waits/,
        );
        assert.deepEqual(record.render!.pages, []);
        assert.ok(
          !env.sites.requests.some((r) => r.host === "delay60.test" && r.path.startsWith("/js/")),
          "a script was fetched",
        );
        // Nothing is concluded from it: the verdict rests on the server HTML, and says so.
        assert.ok(
          signal(record, "content.server_text").evidence.includes(
            "not rendered: judged from the server HTML alone",
          ),
        );
      });
      env.sites.requests.length = 0;
      await t.step("schema: Crawl-delay 1 s kept", async () => {
        const target = { ...normaliseTarget("http://delay.test/"), render: true };
        const { record } = await runSchemaScan(target, { config: env.config, now: FIXED_NOW });
        assert.equal(record.result!.rendered!.status, "rendered", record.result!.rendered!.reason!);
        assertCrawlDelayKept(env.sites.requests, "delay.test", 1000);
      });
      await t.step("schema: Crawl-delay 60 s, not rendered, and it says why", async () => {
        const target = { ...normaliseTarget("http://delay60.test/"), render: true };
        const { record } = await runSchemaScan(target, { config: env.config, now: FIXED_NOW });
        const rendered = record.result!.rendered!;
        assert.equal(rendered.status, "unavailable");
        assert.match(
          rendered.note,
          /^Not rendered \(robots\.txt asks our crawler for a Crawl-delay of 60 s/,
        );
        assert.ok(
          !env.sites.requests.some((r) => r.host === "delay60.test" && r.path.startsWith("/js/")),
          "a script was fetched",
        );
      });
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "schema scan - JSON-LD a script injects is one view with the server HTML: marked added by scripts",
  ignore,
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const target = { ...normaliseTarget("http://jsonld.test/"), render: true };
      // The service's scanner, as the scan threads run it (it hands in the robots.txt reader).
      const { record } = await runSchemaScan(target, { config: env.config, now: FIXED_NOW });
      const parsed = SchemaScanRecordSchema.parse(JSON.parse(JSON.stringify(record)));
      const result = parsed.result!;
      // One view: the server HTML's own item, then the Product only scripts add, each marked.
      assert.deepEqual(
        result.detected.jsonLd.map((i) => [i.types, i.origin, i.seenBy]),
        [
          [["Organization"], "server", ["rendering", "non-rendering"]],
          [["Product"], "added", ["rendering"]],
        ],
      );
      const rendered = result.rendered!;
      assert.equal(rendered.status, "rendered", rendered.reason ?? "");
      assert.deepEqual(rendered.added.jsonLd.map((i) => i.types), [["Product"]]);
      assert.equal(rendered.added.jsonLd[0].properties.name, INJECTED_PRODUCT.name);
      assert.match(
        rendered.note,
        /^1 item \(Product\) is added by scripts: Google reads it after rendering; GPTBot, ClaudeBot and PerplexityBot never see it\. Put the markup to paste below in the server HTML/,
      );
      assert.equal(result.view?.note, rendered.note);
      assert.deepEqual(result.view?.origins, { server: 1, added: 1, changed: 0, removed: 0 });
      assert.deepEqual(result.view?.seen, { rendering: 2, nonRendering: 1 });
      // The summary counts the same view.
      assert.equal(result.summary.items, 2);
      assert.ok(result.summary.types.includes("Product"));
      // Validated like any item: its rich-result eligibility is judged.
      assert.ok(rendered.eligibility.some((e) => e.type === "Product"), JSON.stringify(rendered));
      // The generated graph carries it, so pasting the graph moves it into the server HTML.
      const types = result.generated.graph["@graph"].map((n) => n["@type"]);
      assert.ok(types.includes("Product"), JSON.stringify(types));
      assert.equal(result.summary.generatedNodes, result.generated.graph["@graph"].length);
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "schema scan - what scripts inject is shown escaped: report sections, HTML and Markdown exports, MCP summary",
  ignore,
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const target = { ...normaliseTarget("http://jsonld.test/hostile"), render: true };
      const { record } = await runSchemaScan(target, { config: env.config, now: FIXED_NOW });
      const rendered = record.result!.rendered!;
      assert.equal(rendered.status, "rendered", rendered.reason ?? "");
      const added = rendered.added.jsonLd;
      // Both items, though their text holds "</script>" (the rendered DOM is read back whole).
      assert.equal(added.length, 2, JSON.stringify(added));
      assert.ok(added.some((i) => i.properties.name === HOSTILE_TEXT));
      const surfaces = {
        report: renderToString(SchemaResultSections({ result: record.result! })),
        html: renderExport({ service: schemaService, record, failure: null }, "html"),
        md: renderExport({ service: schemaService, record, failure: null }, "md"),
        mcp: summariseSchema(record),
      };
      for (const [name, out] of Object.entries(surfaces)) {
        assert.match(out, /added by scripts/i, `${name}: the section is shown`);
        if (name === "mcp") continue;
        // Markdown escapes with a backslash (CommonMark shows `\<` as a literal "<"); code spans
        // (a finding's path, `mdCode`) and fenced blocks show their text literally.
        const raw = name === "md"
          ? /(?<!\\)<(img|b>|\/pre|script>alert)/
          : /<img src=x|<b>bold<\/b><\/pre>|<script>alert\(2\)/;
        const text = name === "md"
          ? out.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/(`+)[^`]*?\1/g, "")
          : out;
        assert.doesNotMatch(text, raw, `${name}: markup from the page is escaped`);
      }
      // The page's text is there, as text.
      assert.ok(surfaces.report.includes("&lt;img src=x onerror=alert(1)>"), surfaces.report);
      // Markdown outside the code blocks (the generated graph is a fenced JSON block: literal text,
      // its "<" written \u003c) holds no live link from the page.
      const prose = surfaces.md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
      assert.ok(prose.length < surfaces.md.length, "the generated graph is a code block");
      assert.ok(!prose.includes("](javascript:"), "md: no live link from the page");
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "schema scan - without render: no rendered field, the graph from the server HTML alone",
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const { record } = await scanPage("http://jsonld.test/", {
        config: env.config,
        now: FIXED_NOW,
      });
      assert.equal(record.result?.rendered, undefined);
      assert.ok(!env.sites.requests.some((r) => r.path === "/gtm.js"), "scripts are not fetched");
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "CLI --render - the readable report and the JSON record carry the rendered view",
  ignore,
  ...STEP,
  fn: async () => {
    const env = await scanEnv();
    try {
      const text = await runCli(["http://spa.test/", "--render"], env.env);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /What AI crawlers see\n {2}Rendered by local Chromium/);
      assert.match(
        text.stdout,
        /\/ {2}\[js only\] {2}GPTBot, ClaudeBot and PerplexityBot get an empty page/,
      );
      assert.match(text.stderr, /rendering the pages in a browser/);
      const json = await runCli(
        ["http://spa.test/", "--render", "--json", "--pages", "1"],
        env.env,
      );
      const record = ScanRecordSchema.parse(JSON.parse(json.stdout));
      assert.equal(record.render?.pages[0].verdict, "js_only");
      const plain = await runCli(["http://spa.test/", "--json", "--pages", "1"], env.env);
      assert.equal(JSON.parse(plain.stdout).render, undefined);
    } finally {
      await env.close();
    }
  },
});

/** Chromium processes this test process started that are still running (Linux /proc). */
async function chromiumChildren(): Promise<number> {
  let n = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing ")".
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === Deno.pid && /chrom/i.test(comm)) n++;
    } catch { /* ended meanwhile */ }
  }
  return n;
}

Deno.test({
  name:
    "rendered scans - the browser opened while the site is read ends with the scan: rendered, refused by Crawl-delay, or the home page never fetched",
  ignore,
  ...STEP,
  fn: async () => {
    const base = await startRenderScanEnv();
    // A host mapped to a closed port: the home page cannot be fetched, the scan fails.
    const config = loadConfig({
      ...base.env,
      SCAN_RESOLVE: `${base.env.SCAN_RESOLVE},gone.test=127.0.0.1:9`,
    });
    const scan = async (domain: string) =>
      (await scanSite({ ...normaliseTarget(domain), render: true }, { config, now: FIXED_NOW }))
        .record;
    try {
      assert.equal(await chromiumChildren(), 0, "a browser was running before the scans");
      const rendered = await scan("http://spa.test/");
      assert.equal(rendered.render?.status, "rendered", rendered.render?.reason ?? "");
      assert.equal(await chromiumChildren(), 0, "left running after a rendered scan");
      const refused = await scan("http://delay60.test/");
      assert.equal(refused.render?.status, "unavailable");
      assert.equal(await chromiumChildren(), 0, "left running after a refused render");
      const failed = await scan("http://gone.test/");
      assert.equal(failed.status, "failed");
      assert.equal(await chromiumChildren(), 0, "left running after a failed scan");
      const page = await runSchemaScan({ ...normaliseTarget("http://gone.test/"), render: true }, {
        config,
        now: FIXED_NOW,
      });
      assert.equal(page.record.status, "failed");
      assert.equal(await chromiumChildren(), 0, "left running after a failed schema scan");
    } finally {
      await base.close();
    }
  },
});
