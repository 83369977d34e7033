/**
 * The rendered view in the Markdown export (lib/export/markdown.ts) and the CLI's readable report:
 * the visibility record's server-HTML-versus-rendered table, and the schema record's structured
 * data added by JavaScript. Page text is escaped like every other cell of the export.
 */
import type { RenderView } from "../render/view.ts";
import type { RenderedStructured } from "../structured/record.ts";
import { pagePath } from "../visibility/audit/format_pages.ts";

/** The Markdown export's escaping helpers (lib/export/markdown.ts passes its own). */
export interface MdTools {
  mdText(s: string | null | undefined): string;
  mdTable(head: string[], rows: string[][]): string;
}

/** The "What AI crawlers see" section; none for a scan that did not ask to render. */
export function renderViewMarkdown(view: RenderView | undefined, md: MdTools): string[] {
  if (!view) return [];
  const { mdText, mdTable } = md;
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
  out.push(crawlerLine(view, mdText));
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

/** The schema record's "added by JavaScript" section; none when the scan did not render. */
export function renderedStructureMarkdown(
  rendered: RenderedStructured | undefined,
  { mdText }: MdTools,
): string[] {
  if (!rendered) return [];
  const added = [...rendered.added.jsonLd, ...rendered.added.microdata, ...rendered.added.rdfa];
  return [
    "## Structured data added by JavaScript",
    mdText(rendered.note),
    ...(added.length
      ? [
        added.map((item) =>
          `- ${mdText(item.types.join(", ") || "untyped")} (${mdText(item.location)})`
        ).join("\n"),
      ]
      : []),
  ];
}

function crawlerLine(view: RenderView, mdText: MdTools["mdText"]): string {
  const names = (renders: boolean) =>
    view.crawlers.filter((c) => c.renders === renders).map((c) => mdText(c.token)).join(", ");
  return `Run JavaScript: ${names(true)} (their vendors say so). Do not: ${
    names(false)
  } (a published measurement; their vendors are silent). Sources checked ${
    mdText(view.crawlers[0]?.checked ?? "–")
  }.`;
}
