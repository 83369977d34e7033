/**
 * The GitHub Action's job summary (action.yml): a record saved by the CLI (`--out report.json`),
 * the baseline it was compared with and the CLI's exit status, as the Markdown written to
 * $GITHUB_STEP_SUMMARY (https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/workflow-commands-for-github-actions#adding-a-job-summary,
 * checked 2026-11-26), plus the step outputs (score, grade, regression) appended to $GITHUB_OUTPUT.
 * Every string from the scanned site is escaped (lib/engines/export/markdown.ts mdText).
 *
 *   deno run --allow-read --allow-write --allow-env lib/features/watch/ci_summary.ts --report report.json \
 *     [--baseline baseline.json] [--fail-under 80] --exit-code 1 [--github-output "$GITHUB_OUTPUT"]
 */
import { parseArgs } from "node:util";
import { compareWithBaseline, readBaseline } from "../../engines/history/baseline.ts";
import { mdTable, mdText } from "../../engines/export/markdown.ts";
import { type ScanRecord, ScanRecordSchema } from "../../engines/visibility/record.ts";

/** What the summary is made of. */
export interface SummaryInput {
  record: ScanRecord;
  baseline: ScanRecord | null;
  failUnder: number | null;
  /** The CLI's exit status: 0 passed, 1 failed the gate, 2 could not run. */
  exitCode: number;
}

/** The job summary in Markdown, and the step's outputs. */
export function ciSummary(
  input: SummaryInput,
): { markdown: string; outputs: Record<string, string> } {
  const { record, baseline, failUnder, exitCode } = input;
  const r = record.result;
  const compared = baseline ? compareWithBaseline(baseline, record) : null;
  const reasons: string[] = [];
  if (!r) reasons.push("the scan failed");
  if (r && failUnder !== null && r.score < failUnder) {
    reasons.push(`the score ${Math.round(r.score)} is below ${failUnder}`);
  }
  if (compared?.regression) reasons.push("a regression against the baseline");
  if (exitCode !== 0 && !reasons.length) reasons.push(`the scan exited with status ${exitCode}`);
  const out: string[] = [
    `## AI visibility of ${mdText(record.domain)}: ${
      r ? `${Math.round(r.score)}/100 (${mdText(r.grade)})` : "scan failed"
    }`,
    exitCode === 0 ? "**Passed.**" : `**Failed:** ${reasons.join("; ")}.`,
  ];
  if (r) {
    out.push(mdTable(
      ["Pillar", "Score"],
      r.pillars.map((p) => [mdText(p.title), `${Math.round(p.score)}/100`]),
      ["l", "r"],
    ));
  }
  if (compared && baseline) {
    out.push(`### Against the baseline (scanned ${mdText(baseline.scannedAt)})`);
    out.push(
      [
        ...compared.diff.summary.map((s) => `- ${mdText(s)}`),
        ...compared.regressions.map((x) => `- **Regression:** ${mdText(x.text)}`),
      ].join("\n") || "- Nothing changed.",
    );
  }
  if (r?.topIssues.length) {
    out.push("### What to fix first");
    out.push(
      r.topIssues.slice(0, 5).map((i, n) =>
        `${n + 1}. **${mdText(i.title)}** (${mdText(i.impact)}): ${mdText(i.detail)}`
      ).join("\n"),
    );
  }
  out.push(`<sub>Scanned ${mdText(record.scannedAt)}.</sub>`);
  return {
    markdown: out.join("\n\n") + "\n",
    outputs: {
      score: r ? String(Math.round(r.score * 10) / 10) : "",
      grade: r?.grade ?? "",
      regression: compared?.regression ? "true" : "false",
    },
  };
}

/** The command line; returns the exit status (0, or 2 for input it cannot read). */
export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      report: { type: "string" },
      baseline: { type: "string" },
      "fail-under": { type: "string" },
      "exit-code": { type: "string" },
      "github-output": { type: "string" },
    },
  });
  const exitCode = Number(values["exit-code"] ?? "0");
  let record: ScanRecord | null = null;
  try {
    record = ScanRecordSchema.parse(JSON.parse(await Deno.readTextFile(values.report ?? "")));
  } catch {
    console.log(
      `## AI visibility: no report\n\n**Failed:** the scan produced no report (exit status ${exitCode}); see the step's log.\n`,
    );
    return 2;
  }
  const baseline = values.baseline
    ? await readBaseline(values.baseline).then((b) => b as ScanRecord, () => null)
    : null;
  const failUnder = values["fail-under"] ? Number(values["fail-under"]) : null;
  const { markdown, outputs } = ciSummary({ record, baseline, failUnder, exitCode });
  console.log(markdown.replace(/\n$/, ""));
  if (values["github-output"]) {
    await Deno.writeTextFile(
      values["github-output"],
      Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join(""),
      { append: true },
    );
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
