/**
 * The Markdown export of a stored record (any service: the blocks are the service's own,
 * lib/service.ts ServiceExports.markdown), one source for the API
 * (GET /api/report/:domain.md), the report page's download link and the CLI (`--format md`).
 *
 * Every string a scanned site or a third party wrote is made inert: in prose and table cells each
 * character Markdown or HTML could read as syntax is backslash-escaped and line breaks fold to
 * spaces, so no heading, link, image, table cell or raw HTML can come out of page text; code goes
 * into fences longer than any backtick run inside it; links are written only for http(s) URLs.
 */
import { codeBlock, inlineParts, parseHow } from "../visibility/fix_text.ts";

/** A fenced code block (lib/engines/visibility/fix_text.ts), for the bodies' pasteable code. */
export { codeBlock };
import { formatUtc, safeHttpUrl } from "../../kit/ui/format.ts";
import { type ExportInput, reportTitle } from "./common.ts";

/**
 * Text for Markdown prose or a table cell: whitespace folded to single spaces, and only what
 * Markdown (CommonMark with GitHub's tables, strikethrough and autolinks) or HTML could read as
 * syntax backslash-escaped, so prose reads as written ("(such as /a)", "+4.2 points"):
 * - anywhere: `\` (an escape itself), `` ` `` (code), `*` and `_` (emphasis), `[` and `]` (a
 *   link or image: with them escaped, `(` and `!` start nothing), `<` (raw HTML, autolinks), `|`
 *   (a table cell), `~` (strikethrough) and `&` before an entity's name (`&amp;`);
 * - at the start of the text only: `#` (a heading), `>` (a quote), `-`, `+` or `=` (a list item,
 *   a rule or a heading underline) and a number with `.` or `)` (an ordered list).
 *
 * @example
 * ```ts
 * mdText("<b>hi</b> | *x* (+4.2 points)"); // "\\<b>hi\\</b> \\| \\*x\\* (+4.2 points)"
 * ```
 */
export function mdText(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim()
    .replace(/[\\`*_[\]<|~]/g, "\\$&")
    .replace(/&(?=#?[A-Za-z0-9]{1,32};)/g, "\\&")
    // What starts a block only at the start of a line: "# x", "> x", "- x", "+ x", "---", "===",
    // "1. x", "1) x".
    .replace(/^([#>+=-])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
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

/**
 * A fix's `how` text: prose steps as escaped paragraphs whose code spans (a command, a tag) stay
 * code, and code blocks fenced as they are (never escaped: they are pasted as they read).
 */
export function howMarkdown(how: string): string {
  return parseHow(how).map((p) =>
    p.kind === "prose"
      ? p.text.split(/\n\s*\n/).map(proseMarkdown).join("\n\n")
      : codeBlock(p.code, p.lang)
  ).join("\n\n");
}

/** A paragraph of prose: its text escaped, its code spans as inline code. */
function proseMarkdown(para: string): string {
  return inlineParts(para.replace(/\s+/g, " ").trim()).map((part) => {
    if (part.code) return mdCode(part.text);
    // mdText trims; the spaces around a code span are the sentence's.
    const lead = part.text.startsWith(" ") ? " " : "";
    const trail = part.text.length > 1 && part.text.endsWith(" ") ? " " : "";
    return lead + mdText(part.text) + trail;
  }).join("");
}

/** The Markdown report of a record of either service. */
export function recordToMarkdown(input: ExportInput): string {
  const out = input.service.exports.markdown(input);
  return out.join("\n\n").replace(/\n{3,}/g, "\n\n") + "\n";
}

export function header(input: ExportInput): string[] {
  const { record } = input;
  const meta = [`Scanned ${mdText(formatUtc(record.scannedAt))}`];
  if (input.reportUrl) meta.push(mdLink("Live report", input.reportUrl));
  return [`# ${mdText(reportTitle(input))}`, meta.join(" · ")];
}

export function failed(input: ExportInput): string[] {
  return [
    "## Scan failed",
    input.failure ? `What went wrong: ${mdText(input.failure)}` : "The scan did not complete.",
    "A page that cannot be fetched is not scored. Check that the site is up and reachable, then scan again.",
  ];
}
