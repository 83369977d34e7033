/**
 * [cpu] The page parsers (HTML facts; JSON-LD, microdata and RDFa with the schema scan's facts,
 * validation and generation), code validation, the Markdown of exports and the vendors' answers
 * grow at most linearly in CPU up to each input's byte limit, on adversarial shapes fast-check
 * draws (helpers/linear_cpu.ts says how the bound stays independent of the machine's load).
 *
 * What they guard: nested elements that each walk their subtree, text helpers that retry a run
 * from each of its characters (the breadcrumb trim and the mailto test of dom_facts.ts, the JSON
 * highlighter's open strings), inline code spans searched again from each backtick run (the
 * exports' Markdown, fix_text.ts), and answers whose sources are de-duplicated by scans.
 */
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import { analysePage } from "../../lib/engines/schema/scan.ts";
import { validateCode } from "../../lib/features/validate/validate_code.ts";
import { renderExport } from "../../lib/engines/export/export.ts";
import { visibilityService } from "../../lib/features/visibility/service.ts";
import { PROVIDERS } from "../../lib/features/answers/providers.ts";
import { highlightJson } from "../../lib/features/schema/views/json_highlight.tsx";
import { visibilityRecord } from "../helpers/records.ts";
import {
  assertLinearCpu,
  assertLinearFor,
  repeatTo,
  repeatWhole,
  unitOf,
} from "./helpers/linear_cpu.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const URL_ = "https://site.test/";
const PAGE = {
  requestedUrl: URL_,
  finalUrl: URL_,
  status: 200,
  contentType: "text/html; charset=utf-8",
  redirects: 0,
  bytes: 0,
  truncated: false,
  fetchMs: 0,
};

/** Shapes of markup that stress a page's parsers (tags, attributes, text and embedded data). */
const MARKUP = [
  '<div class="price breadcrumb">',
  '<a href="mailto:a@b' + ".c".repeat(20) + '">m</a>',
  '<a rel="author" href="/a{i}">By  Ann Poe, ,, ;</a>',
  '<nav aria-label="breadcrumb"><ol><li>' + " /› ".repeat(10) + "</li>",
  '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P{i}</span>',
  '<div vocab="https://schema.org/" typeof="Person" prefix="a: b: c: d' + "x".repeat(30) + '">',
  '<span property="name">N{i}</span>',
  '<script type="application/ld+json">{"@type":"Organization","name":"Acme   co   co"}</script>',
  '<script type="application/ld+json">{"@graph":[{"@id":"#n{i}","@type":"Thing","sameAs":"#n0"}]}</script>',
  "<h2>Question {i}?</h2><p>Answer {i}</p>",
  "<details><summary>Q?</summary>A</details>",
  '<meta property="og:site_name" content="Acme ' + " co".repeat(10) + '">',
  "<time datetime=2024-01-01>",
  "\t".repeat(40) + "x",
];
const MARKUP_ALPHABET = ["<", ">", "/", '"', " ", "=", "div", "a"];

Deno.test("[cpu] HTML facts grow linearly up to a page's 5 MiB", () => {
  assertLinearFor(
    "HTML facts",
    unitOf(MARKUP, MARKUP_ALPHABET),
    (unit) =>
      assertLinearCpu("page facts", (size) => `<html><body>${repeatTo(unit, size)}`, (html) => {
        extractPageFacts(html, URL_);
      }, { from: 16 * KiB, to: 5 * MiB }),
    {
      runs: 1,
      examples: ['<div class="price breadcrumb">'],
    },
  );
});

Deno.test("[cpu] the schema scan (JSON-LD, microdata, RDFa, facts, validation, generation) grows linearly (1 MiB)", () => {
  assertLinearFor(
    "schema scan",
    unitOf(MARKUP, MARKUP_ALPHABET),
    (unit) =>
      assertLinearCpu("schema scan", (size) => `<html><body>${repeatTo(unit, size)}`, (html) => {
        analysePage(html, PAGE, "site.test");
      }, { from: 16 * KiB, to: MiB }),
    {
      runs: 1,
      examples: [MARKUP[0], MARKUP[5]],
    },
  );
});

Deno.test("[cpu] code validation grows linearly up to its 1 MiB", () => {
  const units = unitOf(
    [
      '{"@type":"Product","name":"p{i}","offers":{"price":"9' + ".9".repeat(5) + '"}},',
      '{"@type":"Event","startDate":"yesterday {i}"},',
      '{"@type":"Organization","name":"Acme' + "   co".repeat(4) + '"},',
      '{"@id":"#x{i}","@type":"Thing","sameAs":[' + '"#x0",'.repeat(5) + '"#x1"]},',
    ],
    [" ", ","],
  );
  assertLinearFor(
    "code validation",
    units,
    (unit) =>
      assertLinearCpu("validate", (size) => `[${repeatWhole(unit, size)}{}]`, (json) => {
        try {
          validateCode({ jsonld: JSON.parse(json), url: URL_ });
        } catch {
          // A cut unit is invalid JSON at some sizes: then only the parse is timed, as a user's
          // broken code would be.
        }
      }, { from: 8000, to: MiB }),
    { runs: 1, examples: [] },
  );
});

Deno.test("[cpu] the Markdown export of a record grows linearly (1 MiB record)", () => {
  const units = unitOf(["`", "``x", "` `", "```", "a`b``c", "|", "\n", "**"], ["`", " ", "\n"]);
  const base = visibilityRecord("site.test", {
    score: 50,
    grade: "C",
    pillarScores: [50, 50, 50, 50, 50, 50],
    issues: [{ id: "structured.jsonld", impact: "high" }, { id: "content.faq" }],
  });
  assertLinearFor("markdown export", units, (unit) =>
    assertLinearCpu("markdown", (size) => {
      const text = repeatTo(unit, size);
      const record = structuredClone(base);
      for (const issue of record.result!.topIssues) {
        issue.fix.how = text;
        issue.detail = text.slice(0, 1000);
      }
      return record;
    }, (record) => {
      renderExport({ service: visibilityService, record, failure: null }, "md");
    }, { from: 4 * KiB, to: 512 * KiB }), { runs: 1, examples: ["` ``"] });
});

Deno.test("[cpu] JSON highlighting of generated markup grows linearly (an open string on a line)", () => {
  const units = unitOf(['\\"', '"', "1", "true", "{", "a1"], ['"', "\\", " "]);
  assertLinearFor(
    "JSON highlight",
    units,
    (unit) =>
      assertLinearCpu("highlight", (size) => `"${repeatTo(unit, size)}`, (text) => {
        highlightJson(text);
      }, { from: 4 * KiB, to: MiB }),
    { runs: 1, examples: ['\\"'] },
  );
});

Deno.test("[cpu] the vendors' answers are read in linear time (2 MiB answers)", () => {
  const units = unitOf(
    [
      '{"url":"https://s{i}.test/","title":"t"},',
      '{"url":"https://same.test/","title":"' + " ".repeat(20) + '"},',
      '{"type":"url_citation","url":"https://c{i}.test/"},',
    ],
    [" "],
  );
  assertLinearFor("vendor answers", units, (unit) =>
    assertLinearCpu("answers", (size) => {
      const list = `[${repeatWhole(unit, size)}{}]`;
      const text = JSON.stringify("answer ".repeat(size / 16));
      // Each vendor's documented shape, with the list standing for every list it reads.
      return `{"choices":[{"message":{"content":${text}}}],"citations":${list},` +
        `"search_results":${list},"output":[{"type":"message","content":[{"type":"output_text",` +
        `"text":${text},"annotations":${list}}]}],"content":[{"type":"text","text":${text},` +
        `"citations":${list}}],"candidates":[{"content":{"parts":[{"text":${text}}]},` +
        `"groundingMetadata":{"groundingChunks":${list}}}]}`;
    }, (body) => {
      for (const p of PROVIDERS) {
        try {
          p.parse(JSON.parse(body));
        } catch {
          // A shape a vendor does not document is an error of that answer, not a cost.
        }
      }
    }, { from: 8 * KiB, to: 2 * MiB }), { runs: 1, examples: [] });
});
