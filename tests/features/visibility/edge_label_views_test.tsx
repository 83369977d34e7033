/**
 * The edge's answer has one label, from one stored value (CrawlerRow.edgeState), in every view of a
 * record (issue 42, item 4): the report page, the Markdown and HTML exports, SARIF and the MCP
 * summary. A plain 403 ("Access denied") is "refused" everywhere and never "a challenge page"; a
 * page that asks the client to prove something is "a challenge page" everywhere.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { REPORT_SECTIONS } from "../../../lib/features/visibility/views/visibility_report.tsx";
import { renderExport } from "../../../lib/engines/export/export.ts";
import { visibilityService } from "../../../lib/features/visibility/service.ts";
import { summarise } from "../../../lib/features/visibility/mcp.ts";
import { scoreSite } from "../../../lib/engines/visibility/score.ts";
import { type ScanRecord, ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { answer, pageCtx } from "../../helpers/signal_ctx.ts";

const MAJORS = [
  "OAI-SearchBot",
  "Claude-SearchBot",
  "PerplexityBot",
  "Googlebot",
  "Bingbot",
  "Applebot",
];

function record(edgeAnswer: () => ReturnType<typeof answer>): ScanRecord {
  const ctx = pageCtx({ edge: Object.fromEntries(MAJORS.map((t) => [t, edgeAnswer()])) });
  return ScanRecordSchema.parse({
    domain: "shop.example",
    status: "ok",
    scannedAt: ctx.now.toISOString(),
    result: scoreSite(ctx),
    offSite: null,
  });
}

/** Every view of a record, as text. */
function views(r: ScanRecord): Record<string, string> {
  const input = { service: visibilityService, record: r, failure: null };
  const props = {
    record: r,
    result: r.result!,
    now: Date.parse(r.scannedAt),
    rescan: <span />,
    origin: "https://checker.example",
    badge: { alt: "badge", width: 1, height: 1 } as never,
  };
  return {
    report: REPORT_SECTIONS.map((s) => renderToString(s.render(props) ?? <span />)).join(""),
    markdown: renderExport(input, "md"),
    html: renderExport(input, "html"),
    // SARIF's claims about this record are its results' messages (its rules carry the checks'
    // general explanations).
    sarif: JSON.parse(renderExport(input, "sarif")).runs[0].results.map((x: {
      message: { text: string };
    }) => x.message.text).join("\n"),
    mcp: summarise(r, 20),
  };
}

Deno.test("edge labels - a plain 403 is refused in every view, never a challenge page", () => {
  const r = record(() =>
    answer("/", "<!doctype html><title>Access denied</title><p>Access denied</p>", 403)
  );
  for (const [view, text] of Object.entries(views(r))) {
    // The checks' general explanations (what a challenge is) may appear on the report page; no
    // statement about this site calls its answer one.
    assert.doesNotMatch(text, /challenge page \\?\(HTTP/i, `${view} calls a plain 403 a challenge`);
    assert.doesNotMatch(text, /answers their crawlers with a challenge/i, view);
  }
  const v = views(r);
  for (const view of ["report", "markdown", "html"]) {
    assert.match(v[view], /refused \\?\(HTTP 403\\?\)|HTTP 403/, `${view} says refused`);
  }
});

Deno.test("edge labels - a challenge page is a challenge page in every view that shows the edge", () => {
  const r = record(() =>
    answer(
      "/",
      "<!doctype html><title>Just a moment...</title><p>Checking your browser</p>",
      403,
      { "cf-mitigated": "challenge" },
    )
  );
  const v = views(r);
  for (const view of ["report", "markdown", "html", "sarif", "mcp"]) {
    // (Markdown escapes the parentheses.)
    assert.match(v[view], /a challenge page \\?\(HTTP 403\\?\)/, `${view}`);
  }
});
