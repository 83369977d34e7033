/** The AI Visibility Checker's Markdown export body (lib/export/markdown.ts joins the blocks). */
import type { ExportInput } from "../../service.ts";
import type { ScanRecord, Signal } from "../../visibility/record.ts";
import {
  failed,
  header,
  howMarkdown,
  mdCode,
  mdLink,
  mdTable,
  mdText,
} from "../../export/markdown.ts";
import { renderViewMarkdown } from "./render_view_text.ts";

/** How a signal's status reads in a table. */
const MARK: Record<Signal["status"], string> = {
  pass: "✓ pass",
  warn: "! warn",
  fail: "✗ fail",
  info: "i info",
  na: "– n/a",
  unknown: "? unknown",
};

/** The blocks of a visibility record's Markdown report. */
export function visibilityMarkdown(input: ExportInput): string[] {
  return visibilityBlocks(input.record as ScanRecord, input);
}

function visibilityBlocks(record: ScanRecord, input: ExportInput): string[] {
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
  out.push(...renderViewMarkdown(record.render));
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
