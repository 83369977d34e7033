/**
 * What changed between two scans of the same target, from their records alone: the score and
 * grade, each pillar, the issues fixed and the new ones, the other signals whose verdict changed
 * (visibility); the errors and warnings fixed and new (schema). One function for the report page,
 * the JSON endpoint, the MCP tools and the CLI's `--baseline`, with the same plain sentences.
 *
 * A regression (for CI) is a lower score, or a new critical issue (visibility: a new failing or
 * warning signal whose impact is critical, e.g. a gate; schema: a new error).
 */
import type { BaseRecord } from "../../kit/storage/store_types.ts";
import { capOf, weightedScore } from "../visibility/score.ts";
import type { Pillar } from "../visibility/record.ts";

/** A scan as the diff names it. */
export interface DiffSide {
  id: string | null;
  scannedAt: string;
  status: "ok" | "failed";
  score: number | null;
  grade: string | null;
  /**
   * Visibility: the score before any cap (rounded), and the lowest gate raised (its id and cap;
   * `binding` when it lowered the score), so a capped score's change can be read through the cap.
   * Null for the schema service and for a failed scan.
   */
  uncapped: number | null;
  cap: { id: string; cap: number; binding: boolean } | null;
}

/** An issue (a failing or warning signal, or a schema finding). */
export interface DiffIssue {
  id: string;
  title: string;
  /** "fail" / "warn" (visibility), "error" / "warning" (schema). */
  status: string;
  impact: string | null;
  /** The pillar it belongs to (visibility). */
  pillar: string | null;
}

/** A signal whose verdict changed otherwise than fixed or new (e.g. warn to fail). */
export interface DiffChange {
  id: string;
  title: string;
  pillar: string | null;
  from: string;
  to: string;
}

/** What changed between two scans. */
export interface ScanDiff {
  domain: string;
  from: DiffSide;
  to: DiffSide;
  /** to - from, when both have a score. */
  scoreChange: number | null;
  gradeChanged: boolean;
  pillars: { id: string; title: string; from: number | null; to: number | null; change: number }[];
  fixed: DiffIssue[];
  new: DiffIssue[];
  changed: DiffChange[];
  /** A lower score, or a new critical issue. */
  regression: boolean;
  /** Why it is a regression (plain words; empty when it is not). */
  regressionReasons: string[];
  /** The whole diff in plain sentences, most important first. */
  summary: string[];
}

interface VisSignal {
  id: string;
  title: string;
  status: string;
  gate: unknown;
}
interface VisResult {
  score: number;
  grade: string;
  pillars: { id: string; title: string; score: number; signals: VisSignal[] }[];
  topIssues: { id: string; impact: string }[];
}
interface SchemaResult {
  summary: {
    items: number;
    types?: string[];
    errors: number;
    warnings: number;
    eligible?: number;
  };
  findings: { severity: string; rule: string; path: string; message: string }[];
}

const ISSUE = new Set(["fail", "warn"]);

function side(record: BaseRecord, id: string | null): DiffSide {
  const r = record.result as Partial<VisResult> | null;
  const pillars = Array.isArray(r?.pillars) ? r.pillars as Pillar[] : null;
  const cap = pillars ? capOf({ pillars }) : null;
  return {
    id,
    scannedAt: record.scannedAt,
    status: record.status,
    score: typeof r?.score === "number" ? r.score : null,
    grade: typeof r?.grade === "string" ? r.grade : null,
    uncapped: pillars ? Math.round(weightedScore(pillars)) : null,
    cap: cap ? { id: cap.gateId, cap: cap.cap, binding: cap.binding } : null,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function signed(n: number): string {
  return n > 0 ? `+${round(n)}` : `${round(n)}`;
}

/** Compares `to` with `from` (the earlier scan). Ids are the scans' ids when known. */
export function diffRecords(
  from: BaseRecord,
  to: BaseRecord,
  ids: { from?: string | null; to?: string | null } = {},
): ScanDiff {
  const diff: ScanDiff = {
    domain: to.domain,
    from: side(from, ids.from ?? null),
    to: side(to, ids.to ?? null),
    scoreChange: null,
    gradeChanged: false,
    pillars: [],
    fixed: [],
    new: [],
    changed: [],
    regression: false,
    regressionReasons: [],
    summary: [],
  };
  if (diff.from.score !== null && diff.to.score !== null) {
    diff.scoreChange = round(diff.to.score - diff.from.score);
  }
  diff.gradeChanged = diff.from.grade !== diff.to.grade && !!diff.from.grade && !!diff.to.grade;
  const a = from.result as Record<string, unknown> | null;
  const b = to.result as Record<string, unknown> | null;
  if (a && b && "pillars" in a && "pillars" in b) visibilityDiff(diff, a as never, b as never);
  else if (a && b && "findings" in a && "findings" in b) schemaDiff(diff, a as never, b as never);
  if (diff.scoreChange !== null && diff.scoreChange < 0) {
    diff.regressionReasons.push(`the score dropped by ${round(-diff.scoreChange)} points`);
  }
  if (from.status === "ok" && to.status === "failed") {
    diff.regressionReasons.push("the scan failed where the earlier one succeeded");
  }
  const critical = diff.new.filter((i) => i.impact === "critical" || i.status === "error");
  if (critical.length) {
    diff.regressionReasons.push(
      `new critical issue${critical.length > 1 ? "s" : ""}: ${
        critical.map((i) => i.title).join("; ")
      }`,
    );
  }
  diff.regression = diff.regressionReasons.length > 0;
  diff.summary = sentences(diff);
  return diff;
}

function visibilityDiff(diff: ScanDiff, a: VisResult, b: VisResult): void {
  const impactOf = new Map(b.topIssues.map((i) => [i.id, i.impact]));
  const oldImpact = new Map(a.topIssues.map((i) => [i.id, i.impact]));
  const before = new Map<string, VisSignal & { pillar: string }>();
  for (const p of a.pillars) for (const s of p.signals) before.set(s.id, { ...s, pillar: p.title });
  const pillarsBefore = new Map(a.pillars.map((p) => [p.id, p]));
  for (const p of b.pillars) {
    const old = pillarsBefore.get(p.id);
    diff.pillars.push({
      id: p.id,
      title: p.title,
      from: old ? old.score : null,
      to: p.score,
      change: old ? round(p.score - old.score) : 0,
    });
    for (const s of p.signals) {
      const was = before.get(s.id);
      before.delete(s.id);
      const issue = (status: string, impact: string | null): DiffIssue => ({
        id: s.id,
        title: s.title,
        status,
        impact,
        pillar: p.title,
      });
      const wasIssue = !!was && ISSUE.has(was.status);
      const isIssue = ISSUE.has(s.status);
      const impact = impactOf.get(s.id) ?? (s.gate ? "critical" : null);
      if (isIssue && !wasIssue) diff.new.push(issue(s.status, impact));
      else if (!isIssue && wasIssue) {
        diff.fixed.push(issue(was.status, oldImpact.get(s.id) ?? (was.gate ? "critical" : null)));
      } else if (was && was.status !== s.status) {
        diff.changed.push({
          id: s.id,
          title: s.title,
          pillar: p.title,
          from: was.status,
          to: s.status,
        });
      }
    }
  }
  // Signals the earlier scan had and this one no longer reports: an issue among them is gone.
  for (const was of before.values()) {
    if (ISSUE.has(was.status)) {
      diff.fixed.push({
        id: was.id,
        title: was.title,
        status: was.status,
        impact: oldImpact.get(was.id) ?? null,
        pillar: was.pillar,
      });
    }
  }
}

function schemaDiff(diff: ScanDiff, a: SchemaResult, b: SchemaResult): void {
  const key = (f: SchemaResult["findings"][number]) => `${f.severity}|${f.rule}|${f.path}`;
  const issue = (f: SchemaResult["findings"][number]): DiffIssue => ({
    id: `${f.rule}:${f.path}`,
    title: `${f.path}: ${f.message}`,
    status: f.severity,
    impact: f.severity === "error" ? "critical" : null,
    pillar: null,
  });
  const before = new Map(a.findings.map((f) => [key(f), f]));
  const after = new Map(b.findings.map((f) => [key(f), f]));
  for (const [k, f] of after) if (!before.has(k)) diff.new.push(issue(f));
  for (const [k, f] of before) if (!after.has(k)) diff.fixed.push(issue(f));
  const counts: [keyof SchemaResult["summary"], string][] = [
    ["items", "Items found"],
    ["errors", "Errors"],
    ["warnings", "Warnings"],
    ["eligible", "Eligible for rich results"],
  ];
  for (const [id, title] of counts) {
    const f = a.summary[id];
    const t = b.summary[id];
    // `eligible` is absent from records made before it: no change to report then.
    if (typeof f !== "number" || typeof t !== "number") continue;
    diff.pillars.push({ id, title, from: f, to: t, change: t - f });
  }
  // The types the page's items have (a Product a script adds appears here).
  const was = a.summary.types ?? [];
  const now = b.summary.types ?? [];
  const gained = now.filter((t) => !was.includes(t));
  const lost = was.filter((t) => !now.includes(t));
  if (gained.length || lost.length) {
    diff.changed.push({
      id: "types",
      title: `Types on the page${gained.length ? ` (new: ${gained.join(", ")})` : ""}${
        lost.length ? ` (gone: ${lost.join(", ")})` : ""
      }`,
      pillar: null,
      from: was.join(", ") || "none",
      to: now.join(", ") || "none",
    });
  }
}

function list(items: { title: string }[], max = 5): string {
  const shown = items.slice(0, max).map((i) => i.title).join("; ");
  return items.length > max ? `${shown}; and ${items.length - max} more` : shown;
}

function sentences(d: ScanDiff): string[] {
  const out: string[] = [];
  if (d.from.status === "failed" || d.to.status === "failed") {
    out.push(
      d.to.status === "failed"
        ? "This scan failed, so there is nothing to compare: see the failure below."
        : "The earlier scan failed; this one worked.",
    );
  }
  if (d.scoreChange !== null) {
    const s = d.scoreChange === 0
      ? `The score stayed at ${Math.round(d.to.score!)}`
      : `The score went ${d.scoreChange > 0 ? "up" : "down"} from ${Math.round(d.from.score!)} to ${
        Math.round(d.to.score!)
      } (${signed(d.scoreChange)})`;
    out.push(
      d.gradeChanged
        ? `${s}; the grade went from ${d.from.grade} to ${d.to.grade}.`
        : `${s}${d.to.grade ? `; the grade is still ${d.to.grade}` : ""}.`,
    );
  }
  const moved = d.pillars.filter((p) => p.change !== 0);
  if (moved.length) {
    out.push(
      moved.map((p) =>
        d.from.score === null && d.to.score === null
          ? `${p.title}: ${p.from} before, ${p.to} now` // counts (schema)
          : `${p.title} ${p.change > 0 ? "rose" : "fell"} ${round(Math.abs(p.change))} point${
            round(Math.abs(p.change)) === 1 ? "" : "s"
          }`
      ).join(", ") + ".",
    );
  }
  if (d.fixed.length) out.push(`Fixed (${d.fixed.length}): ${list(d.fixed)}.`);
  if (d.new.length) out.push(`New issues (${d.new.length}): ${list(d.new)}.`);
  if (d.changed.length) {
    out.push(
      `Changed verdicts: ${
        d.changed.slice(0, 5).map((c) => `${c.title} (${c.from} to ${c.to})`).join("; ")
      }${d.changed.length > 5 ? `; and ${d.changed.length - 5} more` : ""}.`,
    );
  }
  if (!out.length || (!moved.length && !d.fixed.length && !d.new.length && !d.changed.length)) {
    if (d.to.status === "ok" && d.from.status === "ok") out.push("Nothing else changed.");
  }
  return out;
}
