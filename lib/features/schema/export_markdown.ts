/** The Schema Markup Generator's Markdown export body (lib/engines/export/markdown.ts joins the blocks). */
import type { ExportInput } from "../../service.ts";
import type { RenderedStructured, SchemaScanRecord } from "../../engines/structured/record.ts";
import {
  codeBlock,
  failed,
  header,
  mdCode,
  mdLink,
  mdTable,
  mdText,
} from "../../engines/export/markdown.ts";
import { moreLikeThis } from "../../engines/structured/finding_log.ts";

/** The blocks of a schema record's Markdown report. */
export function schemaMarkdown(input: ExportInput): string[] {
  return schemaBlocks(input.record as SchemaScanRecord, input);
}

function schemaBlocks(record: SchemaScanRecord, input: ExportInput): string[] {
  const out = header(input);
  out.push(`Page: ${mdLink(record.url, record.url)}`);
  const r = record.result;
  if (!r) return [...out, ...failed(input)];
  const s = r.summary;
  out.push("## Summary");
  out.push(mdTable(
    ["Items", "Types", "Errors", "Warnings", "Deprecated", "Eligible for rich results"],
    [[
      String(s.items),
      s.types.length ? s.types.map(mdText).join(", ") : "none",
      String(s.errors),
      String(s.warnings),
      String(s.deprecated),
      String(s.eligible ?? "–"),
    ]],
  ));
  const eligibility = r.eligibility ?? [];
  out.push("## Rich results");
  out.push(
    eligibility.length
      ? mdTable(
        ["Item", "Feature", "Status", "Reasons"],
        eligibility.map((e) => [
          `${mdText(e.source)} ${e.itemIndex + 1}: ${mdText(e.type)}`,
          mdLink(e.feature, e.docs),
          mdText(e.status),
          e.reasons.map(mdText).join("; ") || "–",
        ]),
      )
      : "No item on the page is a candidate for a Google rich result.",
  );
  out.push("## Findings");
  out.push(
    r.findings.length
      ? mdTable(
        ["Severity", "Where", "What to fix", "Rule"],
        r.findings.map((f) => [
          f.severity === "error" ? "Error" : "Warning",
          mdCode(f.path),
          mdText(f.message + moreLikeThis(f)),
          mdText(f.rule),
        ]),
      )
      : "No errors or warnings.",
  );
  if (r.deprecated.length) {
    out.push("## Retired or restricted markup");
    out.push(mdTable(
      ["Feature", "Type", "Since", "What it means"],
      r.deprecated.map((
        d,
      ) => [mdText(d.feature), mdText(d.type), mdText(d.since), mdText(d.message)]),
    ));
  }
  out.push(...renderedStructureMarkdown(r.rendered));
  out.push("## Markup to paste");
  out.push("Paste this into the page's `<head>`, then fill in what the page does not say.");
  out.push(codeBlock(r.generated.script, "html"));
  if (r.generated.fillIn.length) {
    out.push("### Fill in by hand");
    out.push(r.generated.fillIn.map((f) => `- ${mdCode(f.path)}: ${mdText(f.why)}`).join("\n"));
  }
  const items = [...r.detected.jsonLd, ...r.detected.microdata, ...r.detected.rdfa];
  out.push("## Items found");
  out.push(
    items.length
      ? mdTable(
        ["Source", "Types", "Where", "Properties"],
        items.map((it) => [
          mdText(it.source),
          it.types.map(mdText).join(", ") || "–",
          mdText(it.location),
          String(Object.keys(it.properties).length),
        ]),
      )
      : "The page has no structured data.",
  );
  return out;
}

/** The schema record's "added by JavaScript" section; none when the scan did not render. */
function renderedStructureMarkdown(rendered: RenderedStructured | undefined): string[] {
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
