import assert from "node:assert/strict";
import type { Check, Impact } from "../lib/engines/visibility/check.ts";
import type { Fix, SignalStatus } from "../lib/engines/visibility/record.ts";

/** A scored check as a signal would give it: all points for pass, half for warn, none for fail. */
function scored(
  id: string,
  title: string,
  maxPoints: number,
  status: "pass" | "warn" | "fail",
  detail: string,
  options: { fix?: Fix; gate?: { id: string; cap: number }; impact?: Impact } = {},
): Check {
  return {
    signal: {
      id,
      title,
      status,
      points: status === "pass" ? maxPoints : status === "warn" ? maxPoints / 2 : 0,
      maxPoints,
      detail,
      evidence: [],
      gate: status === "pass" ? null : options.gate ?? null,
    },
    fix: status === "pass" ? null : options.fix ?? null,
    impact: options.impact,
  };
}

/** A check out of the score (info, na, unknown). */
function unscored(id: string, title: string, status: SignalStatus, detail: string): Check {
  return {
    signal: { id, title, status, points: 0, maxPoints: 0, detail, evidence: [], gate: null },
    fix: null,
  };
}
import { gradeFor, GRADES, pillarScore, rankIssues } from "../lib/engines/visibility/score.ts";
import type { FixCause, Issue, Pillar } from "../lib/engines/visibility/record.ts";

const fix = (what: string, effort: "S" | "M" | "L" = "S", how = `how to ${what}`) => ({
  what,
  why: "because",
  how,
  effort,
});

/**
 * Ranks checks, each alone in a pillar of weight `w` (a failing signal is worth `w` points, a
 * warning `w / 2`), beside a passing pillar that makes the weights 100.
 */
function ranked(entries: [Check, number][]): Issue[] {
  const pillar = (id: string, weight: number, signals: Check["signal"][]): Pillar => ({
    id,
    title: id,
    score: pillarScore(signals),
    points: 0,
    weight,
    signals,
  });
  const pillars = entries.map(([c, w], i) => pillar(`p${i}`, w, [c.signal]));
  const rest = 100 - entries.reduce((s, [, w]) => s + w, 0);
  pillars.push(pillar("rest", rest, [scored("ok", "OK", 4, "pass", "d").signal]));
  return rankIssues(pillars, entries.map(([c]) => c));
}

Deno.test("[score] grade bands cover 0-100 without gaps", () => {
  assert.equal(gradeFor(100).grade, "A");
  assert.equal(gradeFor(90).grade, "A");
  assert.equal(gradeFor(89).grade, "B");
  assert.equal(gradeFor(75).grade, "B");
  assert.equal(gradeFor(74).grade, "C");
  assert.equal(gradeFor(60).grade, "C");
  assert.equal(gradeFor(59).grade, "D");
  assert.equal(gradeFor(40).grade, "D");
  assert.equal(gradeFor(39).grade, "F");
  assert.equal(gradeFor(0).grade, "F");
  assert.deepEqual(GRADES.map((g) => g.grade), ["A", "B", "C", "D", "F"]);
});

Deno.test("[score] issues: gates first by cap, then by impact, then points per effort", () => {
  const issues = ranked([
    [scored("a", "A", 4, "fail", "d", { fix: fix("big but large effort", "L") }), 8],
    [scored("b", "B", 4, "fail", "d", { fix: fix("small quick win", "S") }), 3],
    [scored("c", "C", 4, "fail", "d", { fix: fix("gate 35"), gate: { id: "g35", cap: 35 } }), 1],
    [scored("d", "D", 4, "fail", "d", { fix: fix("gate 20"), gate: { id: "g20", cap: 20 } }), 1],
    [scored("e", "E", 4, "warn", "d", { fix: fix("medium", "M") }), 10],
  ]);
  // e (high, 5 points for M) and a (high, 8 points for L) come before the quicker b (medium):
  // the badges read critical, critical, high, high, medium, in the order they are listed.
  assert.deepEqual(issues.map((i) => i.id), ["d", "c", "e", "a", "b"]);
  assert.deepEqual(issues.map((i) => i.impact), ["critical", "critical", "high", "high", "medium"]);
});

Deno.test("[score] issues: a pillar's own impact places the issue among its peers", () => {
  const issues = ranked([
    [scored("quick", "Q", 4, "fail", "d", { fix: fix("quick medium", "S") }), 3],
    [scored("sure", "S", 4, "fail", "d", { fix: fix("certain", "M"), impact: "high" }), 1],
    [scored("low", "L", 4, "warn", "d", { fix: fix("insurance", "S"), impact: "low" }), 10],
  ]);
  assert.deepEqual(issues.map((i) => i.id), ["sure", "quick", "low"]);
  assert.deepEqual(issues.map((i) => i.impact), ["high", "medium", "low"]);
});

Deno.test("[score] passing, unscored and fix-less signals are not issues", () => {
  const issues = ranked([
    [scored("p", "P", 4, "pass", "d", { fix: fix("x") }), 10],
    [unscored("u", "U", "unknown", "d"), 10],
    [unscored("i", "I", "info", "d"), 10],
    [scored("n", "N", 4, "fail", "d"), 3],
  ]);
  assert.deepEqual(issues, []);
});

const cause = (key: string, title = key): FixCause => ({ key, title });

Deno.test("[score] fixes of one cause become one issue: the checks it resolves, worth all of them", () => {
  const graph = { ...fix("Add JSON-LD", "S", "```json\n{}\n```"), cause: cause("home:json-ld") };
  const issues = ranked([
    [scored("x1", "X1", 4, "fail", "first", { fix: graph }), 1],
    [scored("y", "Y", 4, "fail", "d", { fix: fix("other") }), 2.5],
    [scored("x2", "X2", 4, "fail", "second", { fix: graph }), 1],
    [scored("x3", "X3", 4, "fail", "third", { fix: graph }), 1],
  ]);
  assert.deepEqual(issues.map((i) => i.id), ["x1", "y"], "3 points of JSON-LD beat 2.5");
  assert.equal(issues[0].detail, "first");
  assert.equal(issues[0].impact, "medium");
  assert.deepEqual(issues[0].resolves!.map((r) => r.id), ["x1", "x2", "x3"]);
  assert.equal(issues[0].worth!.points, 3);
  assert.equal(issues[0].fix.how, graph.how, "one change: the same code, once");
});

Deno.test("[score] the same text without a cause is not merged: merging is by data", () => {
  const same = fix("Do it", "S", "the same words");
  const issues = ranked([
    [scored("a", "A", 4, "fail", "d", { fix: same }), 3],
    [scored("b", "B", 4, "fail", "d", { fix: same }), 2],
  ]);
  assert.deepEqual(issues.map((i) => i.id), ["a", "b"]);
});

Deno.test("[score] a cause whose checks ask different steps lists each step, at the largest effort", () => {
  const tpl = cause("template:article", "Update the template of your article pages");
  const issues = ranked([
    [scored("t", "Titles", 4, "fail", "d", { fix: { ...fix("Own titles", "S"), cause: tpl } }), 2],
    [scored("s", "Data", 4, "warn", "d", { fix: { ...fix("Add data", "M"), cause: tpl } }), 4],
  ]);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].title, "Update the template of your article pages");
  assert.equal(issues[0].fix.effort, "M");
  assert.match(
    issues[0].fix.how,
    /Step 1: Own titles\.\n\nhow to Own titles\n\nStep 2: Add data\./,
  );
  assert.equal(issues[0].worth!.points, 4, "2 for the titles, half of 4 for the warning");
  assert.deepEqual(issues[0].fix.cause, tpl);
});

Deno.test("[score] a gate's fix says it lifts the cap and the score it leads to", () => {
  const issues = ranked([
    [scored("g", "G", 4, "fail", "d", { fix: fix("lift"), gate: { id: "g20", cap: 20 } }), 10],
    [scored("o", "O", 4, "fail", "d", { fix: fix("other") }), 20],
  ]);
  // Uncapped: 70 of 100 now; the gate holds it at 20. Lifting it: 80, capped by nothing.
  assert.deepEqual(issues[0].worth, { points: 10, score: 80, lifts: ["g20"] });
  // The other fix adds 20 points, which count only once the cap is lifted: the score stays 20.
  assert.deepEqual(issues[1].worth, { points: 20, score: 20, lifts: [] });
});
