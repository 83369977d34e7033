/**
 * From checks to the report: pillar scores, the overall score with its gates, the grade, and the
 * top issues ordered by points recoverable per unit of effort (gates first).
 */
import type { Check, Impact, ScanContext } from "./check.ts";
import type { Fix, Grade, Issue, Pillar, Result, Signal, Worth } from "./record.ts";
import { codeBlock, howText, parseHow } from "./fix_text.ts";
import { readSteps } from "./fix_steps.ts";
import { evaluate, round1 } from "./signal.ts";
import { type PillarDef, PILLARS } from "./signals/registry.ts";
import { accessSentence, productsOf } from "./access_model.ts";

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

/**
 * A pillar's score from its signals: the points earned over the points observable, 0-100, whole
 * (0 when nothing in it was observable). The report's pillars carry it; {@link scoreIf} recomputes
 * it the same way.
 */
export function pillarScore(signals: readonly Signal[]): number {
  const max = signals.reduce((s, x) => s + x.maxPoints, 0);
  const got = signals.reduce((s, x) => s + x.points, 0);
  return max > 0 ? Math.round((100 * got) / max) : 0;
}

/** The overall score of scored pillars: the weighted score, capped by the lowest gate standing. */
export interface Overall {
  /** The weighted score before any cap (unrounded). */
  uncapped: number;
  /** The lowest cap standing, or null when no gate is raised. */
  cap: number | null;
  /** What the report shows: the weighted score capped, rounded. */
  score: number;
  /** The gates standing (ids). */
  gates: string[];
}

/** The overall score of `pillars` (what {@link scoreSite} reports, from the same arithmetic). */
export function overall(pillars: readonly Pillar[]): Overall {
  const raw = weightedScore(pillars);
  const gates = pillars.flatMap((p) => p.signals).flatMap((s) => s.gate ? [s.gate] : []);
  const cap = gates.length ? Math.min(100, ...gates.map((g) => g.cap)) : null;
  return {
    uncapped: raw,
    cap,
    score: Math.round(cap === null ? raw : Math.min(raw, cap)),
    gates: gates.map((g) => g.id),
  };
}

/** A signal a fix resolves, and the points it earns after the fix: all of them unless said. */
export interface Resolved {
  id: string;
  /** Fewer than all: the fix leaves part of the signal's problem (see Finding.fixedPoints). */
  points?: number;
  /** The fix leaves the signal's gate standing (a fix of one cause among several). */
  keepsGate?: boolean;
}

/**
 * The overall score if the signals `fixed` earned what the fix leaves them (all their points
 * unless said), their gates lifted, every pillar rescored as the scan scores it. What fixing them
 * is worth is the difference.
 */
export function scoreIf(pillars: readonly Pillar[], fixed: readonly Resolved[]): Overall {
  // One entry per signal: several fixes of one issue may name the same signal (its own fix and a
  // credit), the most it earns and a gate any of them lifts win.
  const after = new Map<string, Resolved>();
  for (const f of fixed) {
    const seen = after.get(f.id);
    after.set(
      f.id,
      seen
        ? {
          id: f.id,
          points: seen.points === undefined || f.points === undefined
            ? undefined
            : Math.max(seen.points, f.points),
          keepsGate: Boolean(seen.keepsGate && f.keepsGate),
        }
        : f,
    );
  }
  return overall(pillars.map((p) => {
    if (!p.signals.some((s) => after.has(s.id))) return p;
    const signals = p.signals.map((s) => {
      const r = after.get(s.id);
      if (!r) return s;
      const gate = r.keepsGate ? s.gate : null;
      if (s.maxPoints <= 0) return { ...s, gate };
      const to = r.points;
      const points = to === undefined ? s.maxPoints : Math.min(s.maxPoints, Math.max(s.points, to));
      return { ...s, points: round1(points), gate };
    });
    return { ...p, signals, score: pillarScore(signals) };
  }));
}

/** What fixing the signals `fixed` is worth on a result: {@link scoreIf} against the score now. */
export function worthOf(pillars: readonly Pillar[], fixed: readonly Resolved[]): Worth {
  const before = overall(pillars);
  const after = scoreIf(pillars, fixed);
  return {
    points: round1(after.uncapped - before.uncapped),
    score: after.score,
    lifts: [...new Set(before.gates.filter((g) => !after.gates.includes(g)))],
  };
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
  const scored = PILLARS.map((def) => {
    const checks = pillarChecks(def, ctx);
    const signals = checks.map((c) => c.signal);
    const score = pillarScore(signals);
    const pillar: Pillar = {
      id: def.id,
      title: def.title,
      score,
      points: round1((score * def.weight) / 100),
      weight: def.weight,
      signals,
    };
    return { pillar, checks };
  });
  const pillars = scored.map((p) => p.pillar);
  const total = overall(pillars);
  const { grade, label: gradeLabel } = gradeFor(total.score);
  const capped = pillars.flatMap((p) => p.signals).filter((s) => s.gate);
  // When AI products cannot read the site, the label says which and why (the one model of access)
  // instead of the grade's generic words, which would contradict it ("ready for AI search").
  const rows = pillars.flatMap((p) => p.signals).find((s) => s.id === "access.edge")?.crawlers;
  const access = rows ? accessSentence(productsOf(rows)) : null;
  const label = access ? `${gradeLabel.split(":")[0]}: ${access}` : gradeLabel;
  return {
    score: total.score,
    grade,
    // In plain words, as the report's cap notice says it (never the gate's id).
    label: total.cap === null
      ? label
      : `${label} (capped at ${total.cap} because ${
        [...new Set(capped.map((s) => gateName(s.gate!.id)))].join("; and ")
      })`,
    pillars,
    topIssues: rankIssues(pillars, scored.flatMap((p) => p.checks)),
  };
}

/** A gate's plain words ("robots.txt blocks the crawlers of AI search engines"), from its def. */
function gateName(id: string): string {
  for (const p of PILLARS) {
    for (const s of p.signals) if (s.gate?.id === id) return s.gate.name;
  }
  return id.replace(/_/g, " ");
}

/**
 * Orders what is worth fixing: the checks with a fix whose signal fails or warns and that either
 * recover points or lift a gate. Fixes of one cause (`fix.cause.key`: the robots.txt groups of
 * the AI crawlers, the template of a kind of page, the home page's JSON-LD graph) are one change,
 * so they become one issue that lists the checks it resolves; its worth is the score recomputed
 * with all of them passing ({@link worthOf}). Gates come first (the lowest cap first), then by
 * impact (critical, high, medium, low: what the report's badges say, either set by the signal
 * for a certain consequence such as a search crawler blocked by robots.txt, or from the points it
 * is worth), and within one impact by the points worth per unit of effort (S=1, M=2, L=4), then
 * the points: Lighthouse orders its opportunities by estimated savings the same way.
 */
export function rankIssues(pillars: readonly Pillar[], checks: readonly Check[]): Issue[] {
  // What other signals credit each cause's fix with (one signal's points taken by several causes).
  const credited = new Map<string, { check: Check; points: number; liftsGate: boolean }[]>();
  for (const check of checks) {
    for (const c of check.credits ?? []) {
      if (c.points <= check.signal.points && !(c.liftsGate && check.signal.gate)) continue;
      credited.set(c.cause, [...(credited.get(c.cause) ?? []), { check, ...c }]);
    }
  }
  const causes = new Map<string, Check[]>();
  for (const check of checks) {
    const { fix, signal } = check;
    if (!fix || (signal.status !== "fail" && signal.status !== "warn")) continue;
    const key = fix.cause?.key ?? `signal:${signal.id}`;
    if (signal.maxPoints - signal.points <= 0 && !signal.gate && !credited.has(key)) continue;
    causes.set(key, [...(causes.get(key) ?? []), check]);
  }
  const capOfGate = new Map(
    pillars.flatMap((p) => p.signals).flatMap((s) => s.gate ? [[s.gate.id, s.gate.cap]] : []),
  );
  const list = [...causes].map(([key, members]) => {
    // The check that carries the lowest gate leads (its id and detail), else the one that loses
    // the most points, else the first listed.
    const lost = (c: Check) => c.signal.maxPoints - c.signal.points;
    const ordered = members.map((c, i) => ({ c, i })).sort((a, b) =>
      (a.c.signal.gate?.cap ?? Infinity) - (b.c.signal.gate?.cap ?? Infinity) ||
      lost(b.c) - lost(a.c) || a.i - b.i
    ).map((x) => x.c);
    const lead = ordered[0];
    const credits = (credited.get(key) ?? []).filter((c) => !ordered.includes(c.check));
    const worth = worthOf(pillars, [
      ...ordered.map((c) => {
        // A member whose points several causes share says what its own cause's fix earns and
        // whether it lifts the gate (a credit to its own cause); else its fix earns what it says.
        const own = c.credits?.find((k) => k.cause === key);
        return own
          ? { id: c.signal.id, points: own.points, keepsGate: !own.liftsGate }
          : { id: c.signal.id, points: c.fixedPoints };
      }),
      ...credits.map((c) => ({ id: c.check.signal.id, points: c.points, keepsGate: !c.liftsGate })),
    ]);
    const fix = mergedFix(ordered);
    const gate = Math.min(Infinity, ...worth.lifts.map((id) => capOfGate.get(id) ?? Infinity));
    return {
      lead,
      ordered,
      worth,
      fix,
      gate,
      ratio: worth.points / EFFORT_COST[fix.effort],
      impact: gate < Infinity ? "critical" as const : strongest([
        ...ordered.map((c) => c.impact ?? impactOf(worth.points)),
        ...credits.map((c) => c.check.impact ?? impactOf(worth.points)),
      ]),
      credits,
    };
  });
  list.sort((a, b) => {
    if (a.gate !== b.gate) return a.gate - b.gate;
    // Then by the impact the badge shows, so that the order and the badges agree: a "low" issue
    // never comes before a "high" one.
    const ia = IMPACT_RANK[a.impact], ib = IMPACT_RANK[b.impact];
    if (ia !== ib) return ia - ib;
    return b.ratio - a.ratio || b.worth.points - a.worth.points;
  });
  return list.map(({ lead, ordered, worth, fix, impact, credits }) => ({
    id: lead.signal.id,
    title: fix.what,
    status: lead.signal.status as "fail" | "warn",
    impact,
    detail: lead.signal.detail,
    fix,
    resolves: [...ordered, ...credits.map((c) => c.check)].map((c) => ({
      id: c.signal.id,
      title: c.signal.title,
    })),
    worth,
  }));
}

/**
 * One fix for the checks of one cause: theirs when they offer the same change (the same `how`,
 * e.g. the JSON-LD graph several structured-data checks ask for; named after the cause when they
 * call it differently), else one fix whose steps are each check's own, in order, under the
 * cause's name, with the largest effort of them. A fix never ships another's text: a member that
 * offers the same `how` as an earlier one adds nothing, and a code block an earlier step ships is
 * left out of a later one with the sentence that places it.
 */
function mergedFix(ordered: Check[]): Fix {
  const lead = ordered[0].fix!;
  const all = ordered.map((c) => c.fix!);
  const fixes = all.filter((f, i) => all.findIndex((g) => g.how === f.how) === i);
  if (fixes.length === 1) {
    return all.every((f) => f.what === lead.what) || !lead.cause
      ? lead
      : { ...lead, what: lead.cause.title };
  }
  const effort = fixes.map((f) => f.effort).sort((a, b) => EFFORT_COST[b] - EFFORT_COST[a])[0];
  const shipped = new Set<string>();
  const steps: string[] = [];
  for (const f of fixes) {
    const own = withoutShipped(f.how, shipped);
    if (own) steps.push(`Step ${steps.length / 2 + 1}: ${f.what}.`, own);
  }
  return {
    what: lead.cause?.title ?? lead.what,
    why: lead.why,
    how: howText(...steps),
    effort,
    ...(lead.cause ? { cause: lead.cause } : {}),
  };
}

/**
 * A `how` without the code blocks already `shipped` (and the instruction that places each), the
 * rest kept in order; records its own blocks as shipped. Empty when nothing new is left.
 */
function withoutShipped(how: string, shipped: Set<string>): string {
  const parts = parseHow(how);
  const keep = parts.map(() => true);
  parts.forEach((p, i) => {
    if (p.kind !== "code") return;
    if (shipped.has(p.code)) {
      keep[i] = false;
      const before = parts[i - 1];
      if (before?.kind === "prose" && readSteps(before.text).length) keep[i - 1] = false;
    }
  });
  for (const p of parts) if (p.kind === "code") shipped.add(p.code);
  const left = parts.filter((_, i) => keep[i]);
  if (!left.some((p) => p.kind === "code") && left.length < parts.length) return "";
  return howText(...left.map((p) => p.kind === "code" ? codeBlock(p.code, p.lang) : p.text));
}

const IMPACT_RANK: Record<Impact, number> = { critical: 0, high: 1, medium: 2, low: 3 };

function strongest(impacts: Impact[]): Impact {
  return impacts.sort((a, b) => IMPACT_RANK[a] - IMPACT_RANK[b])[0];
}

function impactOf(points: number): Impact {
  if (points >= 4) return "high";
  if (points >= 1.5) return "medium";
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

/**
 * The index of the issue whose fix lifts the cap (its worth says so), else of the issue led by the
 * signal that carries the gate; -1 when none. A gate several causes can raise (the search crawlers'
 * gate, lifted by the robots.txt fix or the edge fix) points to the fix that lifts it.
 */
export function capIssueIndex(
  issues: readonly Issue[],
  cap: Pick<CapInfo, "gateId" | "signalId">,
): number {
  const lifting = issues.findIndex((i) => i.worth?.lifts.includes(cap.gateId));
  return lifting >= 0
    ? lifting
    : issues.findIndex((i) =>
      i.id === cap.signalId || (i.resolves ?? []).some((r) => r.id === cap.signalId)
    );
}
