/**
 * A check's severity, from one value in every view (issue 42): the impact the record's issue
 * gives it (lib/engines/visibility/score.ts rankIssues decides it once, stored as `issue.impact`),
 * said in the same words by the report, the compare page, the exports and MCP, and mapped to one
 * SARIF level. A failing check no issue resolves (nothing to fix, or nothing it would earn) has
 * no impact of its own and is a note.
 */
import type { Impact } from "./check.ts";
import type { Issue, Result } from "./record.ts";

/** An issue's severity in words, the same in every view. */
export const IMPACT_TEXT: Record<Impact, string> = {
  critical: "Critical",
  high: "High impact",
  medium: "Medium impact",
  low: "Low impact",
};

/** The issue of a result that resolves check `signalId` (its own, or a fix it was merged into). */
export function issueOf(result: Pick<Result, "topIssues">, signalId: string): Issue | null {
  return result.topIssues.find((i) =>
    i.id === signalId || (i.resolves ?? []).some((r) => r.id === signalId)
  ) ?? null;
}

/** The severity of check `signalId` on a result: its issue's impact, or null when none lists it. */
export function severityOf(result: Pick<Result, "topIssues">, signalId: string): Impact | null {
  return issueOf(result, signalId)?.impact ?? null;
}

/**
 * The SARIF level of a severity: critical and high fail a CI gate (`error`), medium warns
 * (`warning`), low and a check no fix addresses are notes (`note`). Documented in docs/ci.md.
 */
export function sarifLevel(impact: Impact | null): "error" | "warning" | "note" {
  return impact === "critical" || impact === "high"
    ? "error"
    : impact === "medium"
    ? "warning"
    : "note";
}
