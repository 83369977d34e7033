import assert from "node:assert/strict";
import type { Check, Impact } from "../lib/visibility/check.ts";
import type { Fix, SignalStatus } from "../lib/visibility/record.ts";

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
import { gradeFor, GRADES, rankIssues } from "../lib/visibility/score.ts";

const fix = (what: string, effort: "S" | "M" | "L" = "S", how = `how to ${what}`) => ({
  what,
  why: "because",
  how,
  effort,
});

function item(check: Check, recoverable: number) {
  return { check, recoverable };
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
  const issues = rankIssues([
    item(scored("a", "A", 4, "fail", "d", { fix: fix("big but large effort", "L") }), 8),
    item(scored("b", "B", 4, "fail", "d", { fix: fix("small quick win", "S") }), 3),
    item(
      scored("c", "C", 4, "fail", "d", { fix: fix("gate 35"), gate: { id: "g35", cap: 35 } }),
      1,
    ),
    item(
      scored("d", "D", 4, "fail", "d", { fix: fix("gate 20"), gate: { id: "g20", cap: 20 } }),
      1,
    ),
    item(scored("e", "E", 4, "warn", "d", { fix: fix("medium", "M") }), 5),
  ]);
  // e (high, 5 points for M) and a (high, 8 points for L) come before the quicker b (medium):
  // the badges read critical, critical, high, high, medium, in the order they are listed.
  assert.deepEqual(issues.map((i) => i.id), ["d", "c", "e", "a", "b"]);
  assert.deepEqual(issues.map((i) => i.impact), ["critical", "critical", "high", "high", "medium"]);
});

Deno.test("[score] issues: a pillar's own impact places the issue among its peers", () => {
  const issues = rankIssues([
    item(scored("quick", "Q", 4, "fail", "d", { fix: fix("quick medium", "S") }), 3),
    item(scored("sure", "S", 4, "fail", "d", { fix: fix("certain", "M"), impact: "high" }), 1),
    item(scored("low", "L", 4, "warn", "d", { fix: fix("insurance", "S"), impact: "low" }), 5),
  ]);
  assert.deepEqual(issues.map((i) => i.id), ["sure", "quick", "low"]);
  assert.deepEqual(issues.map((i) => i.impact), ["high", "medium", "low"]);
});

Deno.test("[score] passing, unscored and fix-less signals are not issues", () => {
  const issues = rankIssues([
    item(scored("p", "P", 4, "pass", "d", { fix: fix("x") }), 0),
    item(unscored("u", "U", "unknown", "d"), 0),
    item(unscored("i", "I", "info", "d"), 0),
    item(scored("n", "N", 4, "fail", "d"), 3),
  ]);
  assert.deepEqual(issues, []);
});

Deno.test("[score] signals sharing one remedy become one issue with their summed points", () => {
  const shared = fix("Add JSON-LD", "S", "<script>...</script>");
  const issues = rankIssues([
    item(scored("x1", "X1", 4, "fail", "first", { fix: shared }), 1),
    item(scored("y", "Y", 4, "fail", "d", { fix: fix("other") }), 2.5),
    item(scored("x2", "X2", 4, "fail", "second", { fix: shared }), 1),
    item(scored("x3", "X3", 4, "fail", "third", { fix: shared }), 1),
  ]);
  assert.deepEqual(issues.map((i) => i.id), ["x1", "y"], "3 points of JSON-LD beat 2.5");
  assert.equal(issues[0].detail, "first");
  assert.equal(issues[0].impact, "medium");
});
