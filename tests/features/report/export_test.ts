/**
 * Export: the Markdown and self-contained HTML reports (lib/engines/export/) of both services' records,
 * as the API serves them (GET /api/report/:domain.md, .html), the JSON download
 * (?download=1, through the real handler and its report cache), and the report page's links.
 * The Markdown is parsed with markdown-it (raw HTML allowed, the worst case: GitHub renders some
 * HTML); the HTML is parsed with linkedom and must hold no script, handler, resource or unsafe
 * link, only escaped page text.
 */
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import fc from "fast-check";
import { DOMParser } from "linkedom";
import { assertSelfContained } from "../../helpers/export_checks.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import {
  failedVisibilityRecord,
  schemaRecord,
  storeRecord,
  visibilityRecord,
  XSS,
} from "../../helpers/records.ts";
import { exportFilename, renderExport } from "../../../lib/engines/export/export.ts";
import { howMarkdown, mdText } from "../../../lib/engines/export/markdown.ts";
import { codeBlocksOf } from "../../../lib/engines/visibility/fix_text.ts";
import { fixResult } from "../../helpers/fix_context.ts";
import { schemaService } from "../../../lib/features/schema/service.ts";
import { visibilityService } from "../../../lib/features/visibility/service.ts";

const md = new MarkdownIt({ html: true });
type Token = ReturnType<typeof md.parse>[number];

/** What must never appear in rendered output built from {@link XSS}. */
const RAW = [/<script>alert/i, /<img src=x/i, /<[^>]*\sonerror=/i, /href="javascript:/i];

function assertNoRawMarkup(html: string, where: string) {
  for (const re of RAW) assert.doesNotMatch(html, re, `${where} holds unescaped ${re}`);
}

/** The text of every heading of a level, in order. */
function headings(tokens: Token[], tag: string): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (t.type === "heading_open" && t.tag === tag) {
      // The text a reader sees (the source holds the backslash escapes).
      out.push((tokens[i + 1].children ?? []).map((c) => c.content).join(""));
    }
  });
  return out;
}

/** Cells per row of every table, e.g. [[4, 4, 4], [3, 3]]. */
function tableShapes(tokens: Token[]): number[][] {
  const tables: number[][] = [];
  let cells = 0;
  for (const t of tokens) {
    if (t.type === "table_open") tables.push([]);
    if (t.type === "tr_open") cells = 0;
    if (t.type === "th_open" || t.type === "td_open") cells++;
    if (t.type === "tr_close") tables[tables.length - 1].push(cells);
  }
  return tables;
}

Deno.test("[export] Markdown of a visibility record: headings, tables, fences, hostile text inert", () => {
  const record = visibilityRecord("shop.example", {
    score: 58,
    grade: "D",
    pillarScores: [90, 40, 55],
    issues: [{ id: "structured.jsonld", impact: "high" }, { id: "content.faq" }],
    hostile: true,
  });
  const text = renderExport({
    service: visibilityService,
    record,
    failure: null,
    reportUrl: "https://checker.example/report/shop.example",
  }, "md");
  const tokens = md.parse(text, {});
  assert.deepEqual(headings(tokens, "h1"), ["AI visibility report: shop.example"]);
  assert.deepEqual(headings(tokens, "h2"), [
    "What to fix first",
    "Every check, by pillar",
    "Presence beyond the site",
  ]);
  const h3 = headings(tokens, "h3");
  assert.equal(h3.length, 2 + 3, "one per issue, one per pillar");
  assert.ok(h3[0].startsWith("1. Fix structured.jsonld <script>alert(1)</script>"), h3[0]);
  // A "|" in page text stays inside its cell: every row of every table keeps its width.
  assert.deepEqual(tableShapes(tokens), [[4, 4, 4, 4], [4, 4, 4], [4, 4, 4], [4, 4, 4], [
    3,
    3,
    3,
    3,
  ]]);
  // The fix's code is a fence holding the code exactly (a paste of it works).
  const fences = tokens.filter((t) => t.type === "fence");
  assert.equal(fences.length, 2);
  assert.equal(fences[0].info, "html");
  assert.equal(
    fences[0].content,
    `<script type="application/ld+json">{"name": "${XSS}"}</script>\n`,
  );
  // Nothing from the page became HTML, a link, emphasis, a list or a heading.
  assert.equal(tokens.filter((t) => t.type === "html_block" || t.type === "html_inline").length, 0);
  const inline = tokens.filter((t) => t.type === "inline").flatMap((t) => t.children ?? []);
  assert.equal(inline.filter((t) => t.type === "html_inline").length, 0);
  const links = inline.filter((t) => t.type === "link_open").map((t) => String(t.attrGet("href")));
  // Every check and fix links to its learn page on this service; nothing else is a link but the
  // live report and the off-site page found.
  assert.deepEqual(links.filter((l) => !l.startsWith("https://checker.example/learn/")), [
    "https://checker.example/report/shop.example",
    "https://en.wikipedia.org/wiki/Shop_%28store%29",
  ]);
  for (const s of record.result!.pillars.flatMap((p) => p.signals)) {
    assert.ok(links.includes(`https://checker.example/learn/${s.id}`), s.id);
  }
  assert.equal(tokens.filter((t) => t.type === "bullet_list_open").length, 0);
  const html = md.render(text);
  assertNoRawMarkup(html, "the rendered Markdown");
  assert.match(html, /of access &lt;script&gt;alert\(1\)&lt;\/script&gt;/, "shown as text");
  assert.match(html, /\| \*bold\* \[x\]\(javascript:alert\(3\)\)/, "punctuation shown as typed");
});

Deno.test("[export] the exports read like the page: plain words for worth, impact, effort, status and caps; code stays code", () => {
  // A client-rendered shell behind a robots.txt that keeps two AI crawlers out: a cap, a
  // robots.txt fix (code to paste), and fixes of every effort.
  const shell =
    `<!doctype html><html lang="en"><head><title>App</title><script src="/static/js/main.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`;
  const result = fixResult({
    url: "https://shop.example/",
    html: shell,
    robots: "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n",
  });
  const record = {
    domain: "shop.example",
    status: "ok" as const,
    scannedAt: "2026-11-21T10:00:00.000Z",
    result,
    offSite: null,
  };
  const input = {
    service: visibilityService,
    record,
    failure: null,
    reportUrl: "https://checker.example/report/shop.example",
  };
  const text = renderExport(input, "md");
  const html = renderExport(input, "html");
  const doc = new DOMParser().parseFromString(html, "text/html");
  const htmlText = doc.querySelector("main")!.textContent;
  for (const out of [text, htmlText]) {
    // Never the record's codes: no "Effort: L", "Status: fail", check ids, gate ids.
    assert.doesNotMatch(out, /Effort: [SML]\b|Status: (fail|warn)|Check: [a-z]+\.[a-z_]+/);
    assert.doesNotMatch(out, /capped at \d+: [a-z_ ]+\)/, "a cap in plain words, not its id");
    assert.match(
      out,
      /the score is capped at 40 because the page.s text only appears after JavaScript runs/,
    );
    assert.match(out, /Quick fix: minutes/);
    assert.match(out, /Lifts the cap: \d+ → \d+|points once the cap is lifted/);
    assert.match(out, /Passed|Failed|Needs work/);
  }
  // The robots.txt change is a fence holding exactly the code the page offers.
  const issue = result.topIssues.find((i) => i.fix.cause?.key === "robots.txt:ai-access")!;
  const fences = md.parse(text, {}).filter((t) => t.type === "fence").map((t) => t.content);
  for (const code of codeBlocksOf(issue.fix.how)) assert.ok(fences.includes(`${code}\n`), code);
  assert.deepEqual(
    [...doc.querySelectorAll("pre code")].map((c) => c.textContent).filter((c) =>
      codeBlocksOf(issue.fix.how).includes(c)
    ),
    codeBlocksOf(issue.fix.how),
  );
  // A code span in a step stays code: `<html lang>` is never shown as \`\<html...
  const span = howMarkdown("Add `curl -s x | grep -c '<p'` to the check.");
  const [para] = md.parse(span, {}).filter((t) => t.type === "inline");
  assert.deepEqual(para.children!.map((c) => c.type), ["text", "code_inline", "text"]);
  assert.equal(para.children![1].content, "curl -s x | grep -c '<p'");
  // The learn pages are linked: the fix's, and every check's.
  assert.match(text, /\[About this check\]\(https:\/\/checker\.example\/learn\//);
  assert.ok(doc.querySelector('a[href="https://checker.example/learn/content.server_text"]'));
});

Deno.test("[export] Markdown escaping: each text becomes one inert paragraph", () => {
  for (
    const s of [
      "- item",
      "1. first",
      "# title",
      "---",
      "> quote",
      "a\n\n# b",
      "&amp; &#60;",
      "x_y_",
    ]
  ) {
    const html = md.render(mdText(s)).trim();
    assert.match(html, /^<p>[^<]*<\/p>$/, `${JSON.stringify(s)} -> ${html}`);
  }
});

Deno.test("[export] Markdown escapes only what Markdown needs: prose reads as written (issue 42)", () => {
  // Ordinary prose keeps its characters: no "\\(such as", no "\\+4.2 points".
  for (
    const s of [
      "Update your article pages (such as /2024/01/a)",
      "+4.2 points once the cap is lifted",
      "C++ & R&D, 50% off! #1 in town: a > b, {x}",
      "Lifts the cap: 40 → 51",
    ]
  ) {
    const out = mdText(s);
    if (s.startsWith("+")) assert.equal(out, `\\${s}`, "a leading + could start a list");
    else assert.equal(out, s, `${JSON.stringify(s)} -> ${out}`);
    // And it renders as the same words.
    const html = md.render(out).trim();
    const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
    assert.equal(doc.querySelector("div")!.textContent?.trim(), s);
  }
});

Deno.test("[export] Markdown escaping: any text renders as one paragraph of exactly its words", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(..."ab #>+-=*_`[]()!<>|~&;1.)\\\n:/x"), maxLength: 40 }),
      (s) => {
        const text = s.replace(/\s+/g, " ").trim();
        fc.pre(text.length > 0);
        const html = md.render(mdText(s)).trim();
        const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
        const div = doc.querySelector("div")!;
        // One paragraph, no other element (no link, emphasis, code, heading, list or raw HTML),
        // holding the text as written.
        assert.deepEqual([...div.children].map((c) => c.tagName.toLowerCase()), ["p"], html);
        assert.equal(div.querySelector("p")!.children.length, 0, html);
        assert.equal(div.textContent, text, html);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("[export] HTML of a visibility record: self-contained, no script, escaped, prints", () => {
  const record = visibilityRecord("shop.example", {
    score: 58,
    grade: "D",
    pillarScores: [90, 40, 55],
    issues: [{ id: "structured.jsonld", impact: "high" }],
    hostile: true,
  });
  const html = renderExport({ service: visibilityService, record, failure: null }, "html");
  assertSelfContained(html, "visibility HTML");
  assertNoRawMarkup(html, "visibility HTML");
  const doc = new DOMParser().parseFromString(html, "text/html");
  assert.equal(doc.querySelector("h1")!.textContent, "AI visibility report: shop.example");
  assert.equal(doc.querySelectorAll("table").length, 1 + 3 + 1);
  assert.equal(
    doc.querySelector("pre code")!.textContent,
    `<script type="application/ld+json">{"name": "${XSS}"}</script>`,
  );
  assert.ok(doc.querySelector("h3")!.textContent.includes(XSS), "page text shown as text");
  // The javascript: URL of Wikidata is not a link; Wikipedia's is.
  assert.deepEqual([...doc.querySelectorAll("a")].map((a) => a.textContent), ["Wikipedia"]);
});

Deno.test("[export] both formats of a schema record and of failed records", () => {
  const record = schemaRecord("shop.example", true);
  const text = renderExport({ service: schemaService, record, failure: null }, "md");
  const tokens = md.parse(text, {});
  assert.deepEqual(headings(tokens, "h1"), ["Structured data report: shop.example"]);
  assert.deepEqual(headings(tokens, "h2"), [
    "Summary",
    "Rich results",
    "Findings",
    "Markup to paste",
    "Items found",
  ]);
  assert.equal(
    tokens.find((t) => t.type === "fence")!.content,
    record.result!.generated.script + "\n",
  );
  assertNoRawMarkup(md.render(text), "schema Markdown");
  const html = renderExport({ service: schemaService, record, failure: null }, "html");
  assertSelfContained(html, "schema HTML");
  assertNoRawMarkup(html, "schema HTML");
  assert.match(html, /<code>&lt;script type=&quot;application\/ld\+json&quot;>/);

  const failed = failedVisibilityRecord("down.example");
  const failure = `the home page answered HTTP 503 ${XSS}`;
  const fmd = renderExport({ service: visibilityService, record: failed, failure }, "md");
  assert.deepEqual(headings(md.parse(fmd, {}), "h2"), ["Scan failed"]);
  assertNoRawMarkup(md.render(fmd), "failed Markdown");
  const fhtml = renderExport({ service: visibilityService, record: failed, failure }, "html");
  assertSelfContained(fhtml, "failed HTML");
  assert.match(fhtml, /What went wrong: the home page answered HTTP 503 &lt;script>/);
  assert.equal(
    exportFilename({ service: visibilityService, record: failed }, "md"),
    "down.example-ai-visibility-2026-11-21-0800.md",
  );
  assert.equal(
    exportFilename({ service: schemaService, record }, "html"),
    "shop.example-structured-data-2026-11-21-0930.html",
  );
});

Deno.test("[export] API: .md and .html downloads, the JSON download, 404 and 400", async (t) => {
  const env = await startAppEnv();
  try {
    await storeRecord(
      env,
      visibilityRecord("shop.example", {
        score: 58,
        grade: "D",
        pillarScores: [90, 40, 55],
        issues: [{ id: "structured.jsonld" }],
        hostile: true,
      }),
    );
    const get = (path: string, headers: Record<string, string> = {}) =>
      Promise.resolve(env.handler(new Request(`http://localhost${path}`, { headers })));

    await t.step("GET .md: a Markdown attachment with a good file name", async () => {
      const res = await get("/api/report/shop.example.md");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/markdown; charset=utf-8");
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="shop.example-ai-visibility-2026-11-21-0900.md"',
      );
      const text = await res.text();
      assert.match(text, /^# AI visibility report: shop\.example\n/);
      assert.match(text, /\[Live report\]\(http:\/\/localhost\/report\/shop\.example\)/);
    });

    await t.step(
      "GET .html: an HTML attachment, self-contained, under its own strict CSP",
      async () => {
        const res = await get("/api/report/Shop.Example.html");
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
        assert.equal(
          res.headers.get("content-disposition"),
          'attachment; filename="shop.example-ai-visibility-2026-11-21-0900.html"',
        );
        const csp = res.headers.get("content-security-policy")!;
        assert.match(csp, /default-src 'none'/);
        assert.doesNotMatch(csp, /script-src/);
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
        const html = await res.text();
        assertSelfContained(html, "served HTML");
        assertNoRawMarkup(html, "served HTML");
      },
    );

    await t.step("Download JSON: the same body as the report, saved as a file", async () => {
      const plain = await get("/api/report/shop.example.json");
      const body = await plain.text();
      assert.equal(
        plain.headers.get("content-disposition"),
        null,
        "the spec'd answer is unchanged",
      );
      // Now the report cache holds the plain answer; the download must not be served from it.
      const again = await get("/api/report/shop.example.json");
      assert.equal(again.headers.get("content-disposition"), null);
      await again.body?.cancel();
      const dl = await get("/api/report/shop.example.json?download=1");
      assert.equal(dl.status, 200);
      assert.equal(dl.headers.get("content-type"), "application/json");
      assert.equal(
        dl.headers.get("content-disposition"),
        'attachment; filename="shop.example-ai-visibility-2026-11-21-0900.json"',
      );
      assert.equal(await dl.text(), body);
      const after = await get("/api/report/shop.example.json");
      assert.equal(after.headers.get("content-disposition"), null, "the cache kept the plain one");
      await after.body?.cancel();
    });

    await t.step("HEAD: the same headers, no body", async () => {
      const res = await env.app.request("/api/report/shop.example.md", { method: "HEAD" });
      assert.equal(res.status, 200);
      assert.match(
        res.headers.get("content-disposition")!,
        /^attachment; filename="shop\.example-/,
      );
      assert.equal(await res.text(), "");
    });

    await t.step("never scanned: 404 JSON; not a domain: 400 JSON; POST: 405", async () => {
      for (const ext of ["md", "html"]) {
        const nf = await get(`/api/report/never.example.${ext}`);
        assert.equal(nf.status, 404);
        assert.deepEqual(await nf.json(), { error: "Not found" });
        const bad = await get(`/api/report/not_a..domain.${ext}`);
        assert.equal(bad.status, 400);
        assert.match((await bad.json()).error, /Not a domain name/);
      }
      const post = await env.app.request("/api/report/shop.example.md", { method: "POST" });
      assert.equal(post.status, 405);
      await post.body?.cancel();
    });

    await t.step("the report page links to the three downloads and to compare", async () => {
      const html = await (await env.app.request("/report/shop.example")).text();
      assert.match(html, /href="\/api\/report\/shop.example.json\?download=1">JSON</);
      assert.match(html, /href="\/api\/report\/shop.example.md">Markdown</);
      assert.match(html, /href="\/api\/report\/shop.example.html">HTML</);
      assert.match(html, /href="\/compare\?d=shop.example"/);
    });
  } finally {
    await env.close();
  }
});

Deno.test("[export] schema service: exports served, no compare link", async () => {
  const env = await startAppEnv({ service: schemaService });
  try {
    await storeRecord(env, schemaRecord("shop.example", true));
    const res = await env.app.request("/api/report/shop.example.md");
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get("content-disposition"),
      'attachment; filename="shop.example-structured-data-2026-11-21-0930.md"',
    );
    assert.match(await res.text(), /^# Structured data report: shop\.example/);
    const html = await (await env.app.request("/api/report/shop.example.html")).text();
    assertSelfContained(html, "schema HTML served");
    const page = await (await env.app.request("/report/shop.example")).text();
    assert.match(page, /href="\/api\/report\/shop.example.md">Markdown</);
    assert.doesNotMatch(page, /href="\/compare/);
  } finally {
    await env.close();
  }
});
