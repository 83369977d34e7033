/**
 * The Markdown export of a stored record (both services), one source for the API
 * (GET /api/report/:domain.md), the report page's download link and the CLI (`--format md`).
 *
 * Every string a scanned site or a third party wrote is made inert: in prose and table cells each
 * character Markdown or HTML could read as syntax is backslash-escaped and line breaks fold to
 * spaces, so no heading, link, image, table cell or raw HTML can come out of page text; code goes
 * into fences longer than any backtick run inside it; links are written only for http(s) URLs.
 */
import type { ScanRecord, Signal } from "../visibility/record.ts";
import type { SchemaScanRecord } from "../structured/record.ts";
import { codeBlock, parseHow } from "../visibility/fix_text.ts";
import { formatUtc, safeHttpUrl } from "../ui/format.ts";
import { type ExportInput, reportTitle } from "./common.ts";
import type { ServiceName } from "../service_words.ts";
import { renderedStructureMarkdown, renderViewMarkdown } from "./render_markdown.ts";

/**
 * Text for Markdown prose or a table cell: whitespace folded to single spaces, every ASCII
 * punctuation character that can start Markdown or HTML syntax backslash-escaped.
 *
 * @example
 * ```ts
 * mdText("<b>hi</b> | *x*"); // "\\<b\\>hi\\</b\\> \\| \\*x\\*"
 * ```
 */
export function mdText(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim()
    .replace(/[\\`*_{}[\]()<>#+!|~&]/g, "\\$&")
    // What starts a list or a rule only at the start of a line: "- x", "---", "1. x", "1) x".
    .replace(/^-/, "\\-").replace(/^(\d+)([.)])/, "$1\\$2");
}

/** Inline code holding `s` exactly (on one line): the backtick run is longer than any inside. */
export function mdCode(s: string): string {
  const text = s.replace(/\s+/g, " ");
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || text.startsWith(" ") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A link when `url` is a plain http(s) URL, else the label alone (never a `javascript:` href). */
export function mdLink(label: string, url: string | null | undefined): string {
  const safe = safeHttpUrl(url);
  if (!safe) return mdText(label);
  // Parentheses, angle brackets and spaces are percent-encoded so nothing ends the destination.
  const dest = safe.replace(/[()<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${mdText(label)}](${dest})`;
}

/** A GitHub-flavoured table; cells are already Markdown (escape them with mdText). */
export function mdTable(head: string[], rows: string[][], align?: ("l" | "r")[]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c || " ").join(" | ")} |`;
  const rule = head.map((_, i) => align?.[i] === "r" ? "---:" : "---");
  return [line(head), line(rule), ...rows.map(line)].join("\n");
}

/** A fix's `how` text: prose steps as escaped paragraphs, code blocks fenced as they are. */
function howMarkdown(how: string): string {
  return parseHow(how).map((p) =>
    p.kind === "prose"
      ? p.text.split(/\n\s*\n/).map((para) => mdText(para)).join("\n\n")
      : codeBlock(p.code, p.lang)
  ).join("\n\n");
}

const MARK: Record<Signal["status"], string> = {
  pass: "✓ pass",
  warn: "! warn",
  fail: "✗ fail",
  info: "i info",
  na: "– n/a",
  unknown: "? unknown",
};

/** Each service's report body, as Markdown blocks. */
const BODIES: Record<ServiceName, (input: ExportInput) => string[]> = {
  visibility: (input) => visibilityMarkdown(input.record as ScanRecord, input),
  schema: (input) => schemaMarkdown(input.record as SchemaScanRecord, input),
};

/** The Markdown report of a record of either service. */
export function recordToMarkdown(input: ExportInput): string {
  const out = BODIES[input.service](input);
  return out.join("\n\n").replace(/\n{3,}/g, "\n\n") + "\n";
}

function header(input: ExportInput): string[] {
  const { record } = input;
  const meta = [`Scanned ${mdText(formatUtc(record.scannedAt))}`];
  if (input.reportUrl) meta.push(mdLink("Live report", input.reportUrl));
  return [`# ${mdText(reportTitle(input))}`, meta.join(" · ")];
}

function failed(input: ExportInput): string[] {
  return [
    "## Scan failed",
    input.failure ? `What went wrong: ${mdText(input.failure)}` : "The scan did not complete.",
    "A page that cannot be fetched is not scored. Check that the site is up and reachable, then scan again.",
  ];
}

function visibilityMarkdown(record: ScanRecord, input: ExportInput): string[] {
  const out = header(input);
  const r = record.result;
  if (!r) return [...out, ...failed(input)];
  out.push(`**Score ${Math.round(r.score)}/100 · Grade ${mdText(r.grade)}** · ${mdText(r.label)}`);
  out.push("## Pillars");
  out.push(mdTable(
    ["Pillar", "Score", "Points", "Weight"],
    r.pillars.map((p) => [
      mdText(p.title),
      `${Math.round(p.score)}/100`,
      String(Math.round(p.points * 10) / 10),
      String(p.weight),
    ]),
    ["l", "r", "r", "r"],
  ));
  out.push("## What to fix first");
  if (!r.topIssues.length) out.push("Nothing to fix right now.");
  r.topIssues.forEach((issue, i) => {
    out.push(`### ${i + 1}. ${mdText(issue.title)}`);
    out.push(
      `**Impact:** ${mdText(issue.impact)} · **Effort:** ${mdText(issue.fix.effort)} · ` +
        `**Status:** ${mdText(issue.status)} · **Check:** ${mdCode(issue.id)}`,
    );
    out.push(mdText(issue.detail));
    out.push(`**What:** ${mdText(issue.fix.what)}`);
    out.push(`**Why:** ${mdText(issue.fix.why)}`);
    out.push("**How:**");
    out.push(howMarkdown(issue.fix.how));
  });
  out.push("## Every check, by pillar");
  for (const p of r.pillars) {
    out.push(`### ${mdText(p.title)} (${Math.round(p.score)}/100)`);
    out.push(mdTable(
      ["Check", "Result", "Points", "Detail"],
      p.signals.map((s) => [
        mdText(s.title),
        MARK[s.status] ?? mdText(s.status),
        s.maxPoints > 0 ? `${s.points}/${s.maxPoints}` : "–",
        mdText(s.detail),
      ]),
    ));
  }
  out.push(...renderViewMarkdown(record.render, { mdText, mdTable }));
  out.push("## Off-site presence");
  if (!record.offSite) out.push("The off-site checks could not run.");
  else {
    const o = record.offSite;
    out.push(mdTable(
      ["Source", "Status", "Detail"],
      ([["Wikidata", o.wikidata], ["Wikipedia", o.wikipedia], [
        "Common Crawl",
        o.commonCrawl,
      ]] as const)
        .map((
          [name, c],
        ) => [mdLink(name, c.url), mdText(c.status.replace("_", " ")), mdText(c.detail)]),
    ));
  }
  return out;
}

function schemaMarkdown(record: SchemaScanRecord, input: ExportInput): string[] {
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
          mdText(f.message),
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
  out.push(...renderedStructureMarkdown(r.rendered, { mdText, mdTable }));
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
