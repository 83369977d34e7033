/**
 * The visibility record's rendered view (docs/rendering.md) in words: the Markdown export's
 * server-HTML-versus-rendered section, and the same as plain text lines for the CLI's readable
 * report and the MCP summary. Page text is escaped like every other cell of the export.
 */
import type { RenderView } from "../../engines/render/view.ts";
import { pagePath } from "../../engines/visibility/audit/format_pages.ts";
import { mdTable, mdText } from "../../engines/export/markdown.ts";

/** The "What AI crawlers see" section; none for a scan that did not ask to render. */
export function renderViewMarkdown(view: RenderView | undefined): string[] {
  if (!view) return [];
  const out = ["## What AI crawlers see: server HTML and rendered page"];
  out.push(
    view.status === "rendered" || view.status === "partial"
      ? `Rendered by ${mdText(view.browser)} in ${Math.round(view.elapsedMs / 100) / 10} s.${
        view.reason ? ` Not every page: ${mdText(view.reason)}.` : ""
      }`
      : `**Not rendered**: ${
        mdText(view.reason)
      }. Nothing is concluded from that: the JavaScript verdicts are judged from the server HTML alone.`,
  );
  out.push(crawlerLine(view));
  if (view.pages.length) {
    out.push(mdTable(
      ["Page", "Verdict", "Words (server → rendered)", "What crawlers that do not render miss"],
      view.pages.map((p) => [
        mdText(pagePath(p.url)),
        mdText(p.verdict.replace("_", " ")),
        p.raw && p.rendered ? `${p.raw.words} → ${p.rendered.words}` : "–",
        mdText(p.missed),
      ]),
    ));
  }
  return out;
}

/** The same view as plain text lines (the CLI's readable report). */
export function renderViewText(view: RenderView | undefined): string[] {
  if (!view) return [];
  const head = view.status === "rendered" || view.status === "partial"
    ? `Rendered by ${view.browser} in ${Math.round(view.elapsedMs / 100) / 10} s${
      view.reason ? ` (not every page: ${view.reason})` : ""
    }`
    : `Not rendered: ${view.reason} (the JavaScript verdicts are judged from the server HTML)`;
  return [
    "What AI crawlers see",
    `  ${head}`,
    ...view.pages.map((p) => `  ${pagePath(p.url)}  [${p.verdict.replace("_", " ")}]  ${p.missed}`),
  ];
}

function crawlerLine(view: RenderView): string {
  const names = (renders: boolean) =>
    view.crawlers.filter((c) => c.renders === renders).map((c) => mdText(c.token)).join(", ");
  return `Run JavaScript: ${names(true)} (their vendors say so). Do not: ${
    names(false)
  } (a published measurement; their vendors are silent). Sources checked ${
    mdText(view.crawlers[0]?.checked ?? "–")
  }.`;
}
