/** The Schema Markup Generator's Markdown export body (lib/engines/export/markdown.ts joins the blocks). */
import type { ExportInput } from "../../service.ts";
import type { Result, SchemaScanRecord } from "../../engines/structured/record.ts";
import { ORIGIN_WORDS, readersOf } from "./views/schema_view_section.tsx";
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
  out.push(...viewMarkdown(r));
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
        [
          "Source",
          "Types",
          "Where",
          "Properties",
          ...(r.view?.rendered ? ["From", "Read by"] : []),
        ],
        items.map((it) => [
          mdText(it.source),
          it.types.map(mdText).join(", ") || "–",
          mdText(it.location),
          String(Object.keys(it.properties).length),
          ...(r.view?.rendered
            ? [
              mdText(ORIGIN_WORDS[it.origin ?? "server"]),
              mdText(readersOf(it.origin ?? "server", r.view)),
            ]
            : []),
        ]),
      )
      : "The page has no structured data.",
  );
  return out;
}

/**
 * The schema record's "server HTML and rendered page" section: what scripts add, change and
 * remove; none when the scan neither rendered nor has a note about client rendering.
 */
function viewMarkdown(r: Result): string[] {
  const note = r.view?.note ?? r.rendered?.note;
  if (!note) return [];
  const moved = [...r.detected.jsonLd, ...r.detected.microdata, ...r.detected.rdfa].filter((i) =>
    i.origin && i.origin !== "server"
  );
  return [
    "## Server HTML and rendered page",
    mdText(note),
    ...(moved.length
      ? [
        moved.map((item) =>
          `- ${mdText(ORIGIN_WORDS[item.origin!])}: ${
            mdText(item.types.join(", ") || "untyped")
          } (${mdText(item.location)}): ${mdText(readersOf(item.origin!, r.view))}`
        ).join("\n"),
      ]
      : []),
  ];
}
