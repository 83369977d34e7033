/**
 * The rendered view on every surface that shows a record: the report page's section, the HTML
 * and Markdown exports, the CLI and MCP text. Page text (headings, titles, the "missed" sentence)
 * comes from the scanned site, so a hostile one is escaped everywhere; a view that is
 * "unavailable" says "Not rendered" and why; a record without a view shows no section. The report
 * page itself (GET /report/:domain) shows a stored view, escaped.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { renderExport } from "../lib/engines/export/export.ts";
import { renderViewText } from "../lib/features/visibility/render_view_text.ts";
import { summarise } from "../lib/features/visibility/mcp.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";
import type { RenderView } from "../lib/engines/render/view.ts";
import type { ScanRecord } from "../lib/engines/visibility/record.ts";
import { CRAWLER_RENDERING } from "../lib/engines/visibility/crawlers.ts";
import { RenderViewSection } from "../lib/features/visibility/views/render_view.tsx";
import { startAppEnv } from "./helpers/app_env.ts";
import { scanJob } from "./helpers/records.ts";

const HOSTILE =
  `<script>alert(1)</script>"><img src=x onerror=alert(2)> | **bold** [x](javascript:alert(3))`;

function view(overrides: Partial<RenderView> = {}): RenderView {
  return {
    status: "rendered",
    reason: null,
    browser: "local Chromium 156.0.8078.108",
    budgetMs: 20_000,
    elapsedMs: 2_345,
    crawlers: [...CRAWLER_RENDERING],
    pages: [{
      url: "https://shop.example/",
      state: "rendered",
      reason: null,
      raw: {
        words: 3,
        headings: 0,
        h1: null,
        internalLinks: 0,
        title: HOSTILE,
        description: null,
        canonical: null,
        robots: null,
        structuredTypes: [],
      },
      rendered: {
        words: 412,
        headings: 4,
        h1: HOSTILE,
        internalLinks: 6,
        title: HOSTILE,
        description: null,
        canonical: null,
        robots: null,
        structuredTypes: [],
      },
      verdict: "js_only",
      onlyAfterScripts: {
        words: 409,
        headingCount: 4,
        headings: [`h1: ${HOSTILE}`],
        links: 6,
        linkExamples: ["/shop"],
        structuredTypes: [],
      },
      changed: [],
      requests: { served: 3, refused: 0, failed: 0, refusedKinds: {} },
      missed:
        `GPTBot, ClaudeBot and PerplexityBot get an empty page here: the server HTML holds 3 words, the rendered page 412. Only scripts add 4 headings (the first: “${HOSTILE}”).`,
    }],
    ...overrides,
  };
}

function record(render?: RenderView): ScanRecord {
  return {
    domain: "shop.example",
    status: "ok",
    scannedAt: "2026-11-26T12:00:00.000Z",
    result: { score: 40, grade: "D", label: "Weak", pillars: [], topIssues: [] },
    offSite: null,
    ...(render ? { render } : {}),
  };
}

Deno.test("render view - report section, HTML and Markdown exports escape the page's text", () => {
  const html = renderToString(RenderViewSection({ view: view() })!);
  assert.match(html, /What AI crawlers see: server HTML and rendered page/);
  assert.match(html, /Rendered by local Chromium 156\.0\.8078\.108 in 2\.3 s/);
  assert.match(html, /<td>only after scripts<\/td><td>3 → 412<\/td>/);
  assert.ok(!html.includes("<script>alert(1)"), "page text must be escaped");
  assert.ok(!html.includes("<img src=x"), "page text must be escaped");
  assert.match(html, /href="https:\/\/developers\.google\.com\/search\/docs\/crawling-indexing/);
  for (const format of ["html", "md"] as const) {
    const out = renderExport(
      { service: visibilityService, record: record(view()), failure: null },
      format,
    );
    assert.match(out, /What AI crawlers see: server HTML and rendered page/, format);
    // In Markdown a backslash before "<" makes it text (CommonMark): no tag can start there.
    assert.ok(
      format === "md"
        ? !/(^|[^\\])<script>alert\(1\)/.test(out) && out.includes("\\<script>alert(1)")
        : !out.includes("<script>alert(1)"),
      `${format}: escaped`,
    );
    // No link to a javascript: URL: in Markdown every "]" before one is escaped (no link starts).
    assert.ok(
      format === "md" ? !/(^|[^\\])\]\(javascript:/.test(out) : !out.includes('href="javascript:'),
      format,
    );
  }
  const md = renderExport(
    { service: visibilityService, record: record(view()), failure: null },
    "md",
  );
  assert.match(
    md,
    /\| \/ \| js only \| 3 → 412 \| GPTBot, ClaudeBot and PerplexityBot get an empty page/,
  );
  assert.match(md, /Do not: GPTBot, ClaudeBot, PerplexityBot/);
});

Deno.test("render view - not rendered says why and concludes nothing; no view, no section", () => {
  const unavailable = view({
    status: "unavailable",
    reason: "no browser: /usr/bin/chromium is not installed and no RENDER_BROWSER_URL is set",
    browser: null,
    pages: [],
  });
  const html = renderToString(RenderViewSection({ view: unavailable })!);
  assert.match(html, /<strong>Not rendered<\/strong>: no browser: \/usr\/bin\/chromium/);
  assert.match(html, /judged from the server HTML alone/);
  assert.ok(!html.includes("<table"));
  assert.equal(RenderViewSection({ view: undefined }), null);
  const md = renderExport({ service: visibilityService, record: record(), failure: null }, "md");
  assert.ok(!md.includes("What AI crawlers see"));
  assert.deepEqual(renderViewText(undefined), []);
  assert.match(renderViewText(unavailable).join("\n"), /Not rendered: no browser/);
});

Deno.test("render view - the CLI and MCP texts name what crawlers miss", () => {
  const text = renderViewText(view()).join("\n");
  assert.match(text, /^What AI crawlers see\n {2}Rendered by local Chromium/);
  assert.match(text, /\/ {2}\[js only\] {2}GPTBot, ClaudeBot and PerplexityBot get an empty page/);
  assert.match(summarise(record(view())), /What AI crawlers see/);
  assert.ok(!summarise(record()).includes("What AI crawlers see"));
});

Deno.test("GET /report/:domain - the stored rendered view is on the report page, the page's text escaped", async () => {
  const env = await startAppEnv();
  try {
    const stored = { ...record(view()), domain: "shop.test" };
    await env.store.finishScan(
      scanJob(stored.domain, crypto.randomUUID(), Date.parse(stored.scannedAt)),
      { record: stored, failure: null, credential: "pipeline", durationMs: 1, jobId: "x" },
    );
    const res = await env.app.request("/report/shop.test");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /What AI crawlers see: server HTML and rendered page/);
    assert.match(html, /GPTBot, ClaudeBot and PerplexityBot get an empty page here/);
    assert.ok(html.includes("&lt;script>alert(1)&lt;/script>"), "the page's text, as text");
    assert.ok(!html.includes("<script>alert(1)"), "page text must be escaped");
    assert.ok(!html.includes("<img src=x"), "page text must be escaped");
  } finally {
    await env.close();
  }
});
