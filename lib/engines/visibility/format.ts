/** The plain-text rendering of a visibility ScanRecord (used by the CLI). */
import { parseHow } from "./fix_text.ts";
import type { ScanRecord, SignalStatus } from "./record.ts";
import { gateText, learnEntry } from "./learn.ts";
import { capOf, gradeFor } from "./score.ts";
import { learnPath } from "../../kit/report_urls.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

const MARK: Record<SignalStatus, string> = {
  pass: "✓",
  warn: "!",
  fail: "✗",
  info: "i",
  na: "–",
  unknown: "?",
};

const COLORS = { red: 31, green: 32, yellow: 33, cyan: 36, gray: 90, bold: 1 } as const;

/**
 * Renders a record for a terminal. Each issue says what its check is about (lib/engines/visibility/learn.ts,
 * the texts behind the report page's "learn more"); with `learnBase` (a deployment's public URL) it
 * also gives the address of the check's page.
 */
export function formatReport(
  record: ScanRecord,
  options: { color?: boolean; all?: boolean; failure?: string | null; learnBase?: string } = {},
): string {
  const c = (name: keyof typeof COLORS, s: string) =>
    options.color ? `\x1b[${COLORS[name]}m${s}\x1b[0m` : s;
  const statusColor = (s: SignalStatus) =>
    s === "pass" ? "green" : s === "fail" ? "red" : s === "warn" ? "yellow" : "gray";
  const out: string[] = [];
  out.push(
    c("bold", `AI visibility report for ${record.domain}`) +
      c("gray", `  (scanned ${record.scannedAt})`),
  );
  out.push("");
  const r = record.result;
  if (!r) {
    out.push(c("red", "Scan failed") + (options.failure ? `: ${options.failure}` : ""));
    out.push(
      "A page that cannot be fetched is not scored. Check that the site is up and reachable.",
    );
    return out.join("\n");
  }
  const gradeColor = r.grade === "A" || r.grade === "B"
    ? "green"
    : r.grade === "C"
    ? "yellow"
    : "red";
  out.push(
    `Score ${c("bold", `${r.score}/100`)}   Grade ${
      c(gradeColor, c("bold", r.grade))
    }   ${r.label}`,
  );
  const cap = capOf(r);
  if (cap) {
    const gate = gateText(cap.gateId);
    out.push("");
    out.push(
      c("red", c("bold", `What holds it back most: capped at ${cap.cap}`)) +
        ` because ${gate?.name ?? cap.gateId}.`,
    );
    if (gate) out.push(`  ${gate.why}`);
    if (cap.evidence.length) out.push(`  Evidence: ${cap.evidence.join("; ")}.`);
    if (gate) out.push(`  It lifts when: ${gate.lift}`);
    out.push(
      cap.binding
        ? `  Fix this first: without the cap the site would score ${cap.uncapped} (grade ${
          gradeFor(cap.uncapped).grade
        }).`
        : "  Fix this first: nothing else counts while it stands.",
    );
  }
  out.push("");
  out.push(c("bold", "Pillars"));
  for (const p of r.pillars) {
    const bar = "█".repeat(Math.round(p.score / 10)).padEnd(10, "░");
    out.push(
      `  ${p.title.padEnd(26)} ${String(p.score).padStart(3)}/100 ${bar}  ${
        String(p.points).padStart(4)
      } of ${p.weight} pts`,
    );
    for (const s of p.signals) {
      if (!options.all && (s.status === "pass" || s.status === "na")) continue;
      out.push(
        `      ${c(statusColor(s.status), MARK[s.status])} ${s.title}: ${c("gray", s.detail)}`,
      );
    }
  }
  out.push("");
  out.push(c("bold", `Top issues (${r.topIssues.length})`));
  if (!r.topIssues.length) out.push("  Nothing to fix. Well done.");
  r.topIssues.forEach((issue, i) => {
    const impactColor = issue.impact === "critical" || issue.impact === "high"
      ? "red"
      : issue.impact === "medium"
      ? "yellow"
      : "gray";
    out.push("");
    out.push(
      `  ${i + 1}. ${c(impactColor, `[${issue.impact}]`)} ${c("bold", issue.title)}  ${
        c("gray", `(effort ${issue.fix.effort})`)
      }`,
    );
    out.push(`     ${issue.detail}`);
    out.push(`     Why: ${issue.fix.why}`);
    out.push("     How:");
    out.push(...formatHow(issue.fix.how, c));
    const learn = learnEntry(issue.id);
    if (learn) {
      out.push(`     About this check: ${learn.what}`);
      if (options.learnBase) {
        out.push(
          `     Learn more: ${trimEnd(options.learnBase, charsOf("/"))}${learnPath(issue.id)}`,
        );
      }
    }
  });
  out.push("");
  out.push(c("bold", "Presence beyond the site"));
  if (!record.offSite) out.push("  The off-site checks could not run.");
  else {
    for (
      const [name, o] of Object.entries({
        Wikidata: record.offSite.wikidata,
        Wikipedia: record.offSite.wikipedia,
        "Common Crawl": record.offSite.commonCrawl,
      })
    ) {
      const col = o.status === "found" ? "green" : o.status === "not_found" ? "yellow" : "gray";
      out.push(
        `  ${name.padEnd(13)} ${c(col, o.status.padEnd(9))} ${o.detail}${
          o.url ? ` ${c("gray", o.url)}` : ""
        }`,
      );
    }
  }
  return out.join("\n");
}

/**
 * A fix's `how` for the terminal: prose steps indented under "How:", each code block set off by
 * a blank line with its lines in colour and without the Markdown fences, so what is selected
 * and copied from the terminal is the code alone (with its indentation).
 */
export function formatHow(how: string, c: (color: "cyan", s: string) => string): string[] {
  const out: string[] = [];
  for (const part of parseHow(how)) {
    if (part.kind === "prose") {
      for (const line of part.text.split("\n")) out.push(`       ${line}`);
    } else {
      out.push("");
      for (const line of part.code.split("\n")) out.push(`         ${c("cyan", line)}`);
      out.push("");
    }
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}
