/**
 * The AI Visibility Checker's Markdown export body (lib/engines/export/markdown.ts joins the blocks). It
 * reads like the report page: the grade in a word and a sentence, what caps the score in plain
 * words, each fix with what it is worth, its impact and effort in words, the checks it resolves
 * and its steps (code blocks fenced, code spans kept as code), every check's result in words, and
 * links to the learn pages when the export knows where this service is.
 */
import type { ExportInput } from "../../service.ts";
import type { Issue, Result, ScanRecord } from "../../engines/visibility/record.ts";
import { capOf } from "../../engines/visibility/score.ts";
import { gateText } from "../../engines/visibility/learn.ts";
import { learnPath } from "../../kit/report_urls.ts";
import { httpBase } from "../../engines/export/sarif.ts";
import {
  failed,
  header,
  howMarkdown,
  mdLink,
  mdTable,
  mdText,
} from "../../engines/export/markdown.ts";
import {
  capLiftText,
  EFFORT_TEXT,
  GRADE_MEANING,
  gradeWord,
  IMPACT_TEXT,
  STATUS_TEXT,
  worthText,
} from "../../engines/visibility/report_texts.ts";
import { renderViewMarkdown } from "./render_view_text.ts";

/** The blocks of a visibility record's Markdown report. */
export function visibilityMarkdown(input: ExportInput): string[] {
  return visibilityBlocks(input.record as ScanRecord, input);
}

/** A check's name, linked to its learn page when the export knows this service's address. */
function checkLink(title: string, id: string, base: string | null): string {
  return base ? mdLink(title, `${base}${learnPath(id)}`) : mdText(title);
}

function visibilityBlocks(record: ScanRecord, input: ExportInput): string[] {
  const out = header(input);
  const r = record.result;
  if (!r) return [...out, ...failed(input)];
  const base = httpBase(input.reportUrl ?? input.sarif?.learnBase);
  out.push(
    `**Score ${Math.round(r.score)}/100 · Grade ${mdText(r.grade)}: ${
      mdText(gradeWord(r.score))
    }**`,
  );
  out.push(mdText(GRADE_MEANING[r.grade] ?? ""));
  out.push(...capBlocks(r, base));
  out.push("## What to fix first");
  if (!r.topIssues.length) out.push("Nothing to fix right now.");
  r.topIssues.forEach((issue, i) => out.push(...issueBlocks(issue, i + 1, r, base)));
  out.push("## Every check, by pillar");
  out.push(mdTable(
    ["Pillar", "Score", "Points", "Weight"],
    r.pillars.map((p) => [
      mdText(p.title),
      `${Math.round(p.score)}/100`,
      String(Math.round(p.points * 10) / 10),
      `${p.weight}%`,
    ]),
    ["l", "r", "r", "r"],
  ));
  for (const p of r.pillars) {
    out.push(`### ${mdText(p.title)} (${Math.round(p.score)}/100)`);
    out.push(mdTable(
      ["Check", "Result", "Points", "What we saw"],
      p.signals.map((s) => [
        checkLink(s.title, s.id, base),
        STATUS_TEXT[s.status] ?? mdText(s.status),
        s.maxPoints > 0 ? `${s.points} of ${s.maxPoints}` : "–",
        mdText(s.detail),
      ]),
    ));
  }
  out.push(...renderViewMarkdown(record.render));
  out.push("## Presence beyond the site");
  if (!record.offSite) out.push("The off-site checks could not run.");
  else {
    const o = record.offSite;
    const words = { found: "Found", not_found: "Not found", unknown: "Could not check" };
    out.push(mdTable(
      ["Source", "Result", "What we saw"],
      ([["Wikidata", o.wikidata], ["Wikipedia", o.wikipedia], [
        "Common Crawl",
        o.commonCrawl,
      ]] as const)
        .map(([name, c]) => [mdLink(name, c.url), words[c.status], mdText(c.detail)]),
    ));
  }
  return out;
}

/** What caps the score, in the words of the report page's notice. */
function capBlocks(r: Result, base: string | null): string[] {
  const cap = capOf(r);
  if (!cap) return [];
  const gate = gateText(cap.gateId);
  return [
    `**What holds it back most:** the score is capped at ${cap.cap} because ${
      mdText(gate?.name ?? cap.gateId.replace(/_/g, " "))
    }. ${mdText(gate?.why ?? "")}`,
    mdText(capLiftText(r) ?? "Fix this first: nothing else counts while it stands.") +
    (gate ? ` ${mdText(`It lifts when: ${gate.lift}`)}` : "") +
    (base ? ` ${mdLink("Learn more", `${base}${learnPath(cap.signalId)}`)}` : ""),
  ];
}

/** One fix: its title, worth, impact and effort in words, what it resolves, why and how. */
function issueBlocks(issue: Issue, n: number, r: Result, base: string | null): string[] {
  const out = [`### ${n}. ${mdText(issue.title)}`];
  out.push(
    [
      `**${mdText(worthText(issue, r))}**`,
      IMPACT_TEXT[issue.impact],
      EFFORT_TEXT[issue.fix.effort],
      ...(base ? [mdLink("About this check", `${base}${learnPath(issue.id)}`)] : []),
    ].join(" · "),
  );
  out.push(mdText(issue.detail));
  out.push(`**Why it matters:** ${mdText(issue.fix.why)}`);
  const resolves = issue.resolves ?? [];
  if (resolves.length > 1) {
    out.push(
      `**One change, ${resolves.length} checks:** ${
        resolves.map((c) => checkLink(c.title, c.id, base)).join(", ")
      }`,
    );
  }
  out.push("**How to fix it:**");
  out.push(howMarkdown(issue.fix.how));
  return out;
}
