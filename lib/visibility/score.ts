/**
 * From checks to the report: pillar scores, the overall score with its gates, the grade, and the
 * top issues ordered by points recoverable per unit of effort (gates first).
 */
import type { Check, Impact, ScanContext } from "./check.ts";
import type { Grade, Issue, Pillar, Result } from "./record.ts";
import { evaluate, round1 } from "./signal.ts";
import { type PillarDef, PILLARS } from "./signals/registry.ts";

/** Every pillar, in report order (the registry's); their weights sum to 100 (tested). */
export { type PillarDef, PILLARS };

/** Grade bands: the lowest score of each grade, and its label. */
export const GRADES: readonly { grade: Grade; min: number; label: string }[] = [
  { grade: "A", min: 90, label: "Excellent: ready to be found and cited by AI" },
  { grade: "B", min: 75, label: "Good: ready for AI search, with a few gaps" },
  { grade: "C", min: 60, label: "Fair: AI can read the site, but many signals are missing" },
  { grade: "D", min: 40, label: "Weak: many of the signals AI systems rely on are missing" },
  { grade: "F", min: 0, label: "Poor: most signals AI systems rely on are missing or blocked" },
];

/** The grade band of a score. */
export function gradeFor(score: number): { grade: Grade; label: string } {
  const band = GRADES.find((g) => score >= g.min) ?? GRADES[GRADES.length - 1];
  return { grade: band.grade, label: band.label };
}

const EFFORT_COST = { S: 1, M: 2, L: 4 } as const;

/**
 * The weighted sum of the pillars that had something to score (a pillar whose signals all left the
 * denominator leaves it too), before any gate caps it: what the score would be without its caps.
 */
export function weightedScore(pillars: readonly Pillar[]): number {
  const observable = pillars.filter((p) => p.signals.some((s) => s.maxPoints > 0));
  const weightSum = observable.reduce((s, p) => s + p.weight, 0);
  return weightSum > 0
    ? observable.reduce((s, p) => s + (p.score * p.weight) / 100, 0) * (100 / weightSum)
    : 0;
}

interface Scored {
  pillar: Pillar;
  checks: Check[];
  maxPoints: number;
}

/**
 * A pillar's signals, evaluated in registry order (those that do not apply to this scan left out);
 * a bug tripped by some site's input costs that pillar (reported as not evaluated, out of the
 * score), never the report.
 */
function pillarChecks(def: PillarDef, ctx: ScanContext): Check[] {
  try {
    return def.signals.map((s) => evaluate(s, ctx)).filter((c): c is Check => c !== null);
  } catch (error) {
    console.error(`pillar ${def.id} failed on ${ctx.pageUrl}:`, error);
    return [{
      signal: {
        id: `${def.id}.not_evaluated`,
        title: `${def.title} could not be evaluated`,
        status: "unknown",
        points: 0,
        maxPoints: 0,
        detail:
          "This part of the report could not be computed for this page (a defect on our side, not a problem of the site); it is left out of the score.",
        evidence: [],
        gate: null,
      },
      fix: null,
    }];
  }
}

/** Runs every pillar's signals and turns them into the scored result. */
export function scoreSite(ctx: ScanContext): Result {
  const scoredPillars: Scored[] = PILLARS.map((def) => {
    const checks = pillarChecks(def, ctx);
    const signals = checks.map((c) => c.signal);
    const max = signals.reduce((s, x) => s + x.maxPoints, 0);
    const got = signals.reduce((s, x) => s + x.points, 0);
    const score = max > 0 ? Math.round((100 * got) / max) : 0;
    return {
      pillar: {
        id: def.id,
        title: def.title,
        score,
        points: round1((score * def.weight) / 100),
        weight: def.weight,
        signals,
      },
      checks,
      maxPoints: max,
    };
  });
  // A pillar with nothing observable leaves the denominator, like an unobservable signal does.
  const observable = scoredPillars.filter((p) => p.maxPoints > 0);
  const weightSum = observable.reduce((s, p) => s + p.pillar.weight, 0);
  const raw = weightedScore(observable.map((p) => p.pillar));
  const gates = scoredPillars.flatMap((p) => p.pillar.signals).map((s) => s.gate).filter((g) =>
    !!g
  );
  const cap = Math.min(100, ...gates.map((g) => g!.cap));
  const score = Math.round(Math.min(raw, cap));
  const { grade, label } = gradeFor(score);
  return {
    score,
    grade,
    label: gates.length
      ? `${label} (capped at ${cap}: ${gates.map((g) => g!.id.replace(/_/g, " ")).join(", ")})`
      : label,
    pillars: scoredPillars.map((p) => p.pillar),
    topIssues: topIssues(scoredPillars, weightSum),
  };
}

/**
 * Every failing or warning signal that has a fix, ordered: gates first (lowest cap first), then by
 * impact, then by overall points recoverable per unit of effort (S=1, M=2, L=4).
 */
function topIssues(pillars: Scored[], weightSum: number): Issue[] {
  return rankIssues(pillars.flatMap((p) =>
    p.checks.map((check) => ({
      check,
      // The overall points this signal would add if fixed.
      recoverable: p.maxPoints > 0 && weightSum > 0
        ? ((check.signal.maxPoints - check.signal.points) / p.maxPoints) * p.pillar.weight *
          (100 / weightSum)
        : 0,
    }))
  ));
}

/**
 * Orders the checks worth fixing: those with a fix whose signal fails or warns and that either
 * recover points or lift a gate. Gates come first (the lowest cap first), then by impact
 * (critical, high, medium, low: what the report's badges say, either set by the pillar for a
 * certain consequence such as a search crawler blocked by robots.txt, or from the points at
 * stake), and within one impact by the points recoverable per unit of effort (S=1, M=2, L=4),
 * then the points. Checks that
 * share one remedy (no JSON-LD at all fails several structured-data signals with the same graph to
 * paste) become one issue carrying the points of all of them.
 */
export function rankIssues(items: { check: Check; recoverable: number }[]): Issue[] {
  const merged = new Map<string, { check: Check; recoverable: number }>();
  for (const { check, recoverable } of items) {
    const { fix, signal } = check;
    if (!fix || (signal.status !== "fail" && signal.status !== "warn")) continue;
    if (recoverable <= 0 && !signal.gate) continue;
    const key = fix.how;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { check, recoverable });
    else {
      seen.recoverable += recoverable;
      if (!seen.check.signal.gate && signal.gate) seen.check = check;
    }
  }
  const list = [...merged.values()].map(({ check, recoverable }) => ({
    check,
    recoverable,
    ratio: recoverable / EFFORT_COST[check.fix!.effort],
    impact: check.signal.gate ? "critical" as const : check.impact ?? impactOf(recoverable),
  }));
  list.sort((a, b) => {
    const ga = a.check.signal.gate?.cap ?? Infinity;
    const gb = b.check.signal.gate?.cap ?? Infinity;
    if (ga !== gb) return ga - gb;
    // Then by the impact the badge shows (a pillar may mark a certain consequence high or
    // critical itself, e.g. a search crawler blocked by robots.txt), so that the order and the
    // badges agree: a "low" issue never comes before a "high" one.
    const ia = IMPACT_RANK[a.impact], ib = IMPACT_RANK[b.impact];
    if (ia !== ib) return ia - ib;
    return b.ratio - a.ratio || b.recoverable - a.recoverable;
  });
  return list.map(({ check, impact }) => ({
    id: check.signal.id,
    title: check.fix!.what,
    status: check.signal.status as "fail" | "warn",
    impact,
    detail: check.signal.detail,
    fix: check.fix!,
  }));
}

const IMPACT_RANK: Record<Impact, number> = { critical: 0, high: 1, medium: 2, low: 3 };

function impactOf(recoverable: number): Impact {
  if (recoverable >= 4) return "high";
  if (recoverable >= 1.5) return "medium";
  return "low";
}

/** The gate that caps a result's score, where it sits, and what the score would be without it. */
export interface CapInfo {
  /** The gate's id (`edge_blocks_ai`). */
  gateId: string;
  cap: number;
  /** The signal that carries the gate (`access.edge`), and its pillar (`access`). */
  signalId: string;
  pillarId: string;
  /** The weighted score before any cap, rounded. */
  uncapped: number;
  /** True when the cap lowers the score (the weighted score is above it). */
  binding: boolean;
  /** The evidence that raised it: the gated signal's evidence. */
  evidence: string[];
}

/** The lowest gate of a result (the one that decides the cap), or null when none applies. */
export function capOf(result: Pick<Result, "pillars">): CapInfo | null {
  let best: Omit<CapInfo, "uncapped" | "binding"> | null = null;
  for (const p of result.pillars) {
    for (const s of p.signals) {
      if (s.gate && (!best || s.gate.cap < best.cap)) {
        best = {
          gateId: s.gate.id,
          cap: s.gate.cap,
          signalId: s.id,
          pillarId: p.id,
          evidence: s.evidence,
        };
      }
    }
  }
  if (!best) return null;
  const uncapped = Math.round(weightedScore(result.pillars));
  return { ...best, uncapped, binding: uncapped > best.cap };
}
