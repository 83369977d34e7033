/**
 * The registry is the one place a signal is enlisted: a throwaway signal (and a throwaway gate)
 * added to it here, in the test and nowhere else, is scored, has its fix in the top issues, is in
 * the generated scoring documentation, and has its page on /learn through the app's handler.
 */
import assert from "node:assert/strict";
import { PILLARS } from "../../../lib/engines/visibility/signals/registry.ts";
import type { GateDef, SignalDef } from "../../../lib/engines/visibility/signal.ts";
import { scoreSite } from "../../../lib/engines/visibility/score.ts";
import { capOf } from "../../../lib/engines/visibility/score.ts";
import { gateText, learnEntry } from "../../../lib/engines/visibility/learn.ts";
import { scoringDocs } from "../../../lib/engines/visibility/scoring_docs.ts";
import { formatReport } from "../../../lib/engines/visibility/format.ts";
import { LEARN_INDEX_PATH, learnPath } from "../../../lib/kit/report_urls.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { pageCtx } from "../../helpers/signal_ctx.ts";

const SOURCE = {
  by: "Example Standards Body",
  title: "The throwaway rule",
  url: "https://standards.example/throwaway",
  checked: "2026-11-26",
};

/** A signal that fails on every page and offers a fix. */
const throwaway: SignalDef = {
  id: "content.throwaway_check",
  pillar: "content",
  title: "Throwaway check for the registry test",
  points: 3,
  scope: "page",
  learn: {
    what: "A check that exists only inside this test, to prove the registry is enough.",
    why: "If a signal needed more than its module and one registry line, this would fail.",
    how: "It fails on every page, with one piece of evidence and a fix.",
    sources: [SOURCE],
  },
  check: () => ({ status: "fail", detail: "Always fails.", evidence: ["throwaway evidence"] }),
  fix: () => ({
    what: "Do the throwaway thing",
    why: "The registry test asks for it.",
    how: "Nothing to paste.",
    effort: "S",
  }),
};

const THROWAWAY_GATE: GateDef = {
  id: "throwaway_gate",
  cap: 15,
  name: "the throwaway gate holds",
  why: "The registry test raises it to see a gate go through the registry alone.",
  when: "always, in the registry test",
  lift: "The registry test removes its throwaway signal.",
};

/** A signal that raises a gate of its own. */
const gated: SignalDef = {
  id: "trust.throwaway_gate_check",
  pillar: "trust",
  title: "Throwaway gated check",
  points: 2,
  scope: "page",
  gate: THROWAWAY_GATE,
  learn: {
    what: "A gated check that exists only inside this test.",
    why: "A gate defined in its signal's module must reach the score, the docs and /learn.",
    how: "It fails and raises its gate on every page.",
    sources: [SOURCE],
  },
  check: () => ({
    status: "fail",
    detail: "Always fails, with its gate.",
    evidence: ["the gate's evidence"],
    gated: true,
  }),
  fix: () => ({
    what: "Lift the throwaway gate",
    why: "It caps the score.",
    how: "Remove the throwaway signal.",
    effort: "S",
  }),
};

/** Runs `fn` with the signals added to their pillars' lists (the one line a new signal needs). */
async function withRegistered(defs: SignalDef[], fn: () => Promise<void> | void) {
  const lists = defs.map((d) => PILLARS.find((p) => p.id === d.pillar)!.signals);
  defs.forEach((d, i) => lists[i].push(d));
  try {
    await fn();
  } finally {
    defs.forEach((d, i) => lists[i].splice(lists[i].indexOf(d), 1));
  }
}

Deno.test({
  name:
    "registry - a signal and a gate added to the registry alone are scored, fixed, documented and on /learn",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const before = scoreSite(pageCtx());
    assert.equal(learnEntry(throwaway.id), null, "not known before it is registered");
    await withRegistered([throwaway, gated], async () => {
      // Scored: in its pillar, with its points, the pillar's denominator grown by them.
      const result = scoreSite(pageCtx());
      const content = result.pillars.find((p) => p.id === "content")!;
      const signal = content.signals.find((s) => s.id === throwaway.id)!;
      assert.deepEqual(
        { status: signal.status, points: signal.points, max: signal.maxPoints },
        { status: "fail", points: 0, max: 3 },
      );
      assert.deepEqual(signal.evidence, ["throwaway evidence"]);
      assert.ok(content.score < before.pillars.find((p) => p.id === "content")!.score);
      // With its fix among the top issues.
      const issue = result.topIssues.find((i) => i.id === throwaway.id)!;
      assert.equal(issue.fix.what, "Do the throwaway thing");
      // The gate: caps the score, leads the issues, named in the label and the cap notice.
      const trust = result.pillars.find((p) => p.id === "trust")!;
      assert.deepEqual(trust.signals.find((s) => s.id === gated.id)!.gate, {
        id: "throwaway_gate",
        cap: 15,
      });
      assert.ok(result.score <= 15, `${result.score}`);
      assert.match(result.label, /capped at 15 because the throwaway gate holds/);
      assert.equal(result.topIssues[0].id, gated.id);
      assert.equal(result.topIssues[0].impact, "critical");
      const cap = capOf(result)!;
      assert.deepEqual([cap.gateId, cap.signalId, cap.evidence], [
        "throwaway_gate",
        gated.id,
        ["the gate's evidence"],
      ]);
      assert.equal(gateText("throwaway_gate")!.lift, THROWAWAY_GATE.lift);
      const record: ScanRecord = {
        domain: "shop.example",
        status: "ok",
        scannedAt: "2026-11-26T12:00:00.000Z",
        result,
        offSite: null,
      };
      const cli = formatReport(record);
      assert.ok(cli.includes("because the throwaway gate holds."), cli);
      assert.ok(cli.includes(`It lifts when: ${THROWAWAY_GATE.lift}`));
      assert.ok(cli.includes("Do the throwaway thing"));
      // Documented: the generated part of docs/scoring.md lists both, the gate and the source.
      const docs = scoringDocs();
      assert.ok(docs.includes(`\`${throwaway.id}\``) && docs.includes(throwaway.title));
      assert.match(docs, /\| `throwaway_gate` \| 15 \| `trust\.throwaway_gate_check` \|/);
      assert.ok(docs.includes(THROWAWAY_GATE.lift));
      assert.ok(docs.includes(`[${SOURCE.title}](${SOURCE.url}) | ${SOURCE.by} | 2026-11-26`));
      // On /learn, through the app's own handler.
      const env = await startAppEnv();
      try {
        const index = await (await env.app.request(LEARN_INDEX_PATH)).text();
        assert.ok(index.includes(`href="${learnPath(throwaway.id)}"`));
        assert.ok(index.includes(`href="${learnPath(gated.id)}"`));
        const page = await env.app.request(learnPath(throwaway.id));
        assert.equal(page.status, 200);
        const html = await page.text();
        assert.ok(html.includes(throwaway.learn.what) && html.includes(throwaway.learn.how));
        assert.ok(html.includes(`href="${SOURCE.url}"`));
        const gatePage = await (await env.app.request(learnPath(gated.id))).text();
        assert.ok(gatePage.includes("caps the whole score at 15 when the throwaway gate holds"));
        assert.ok(gatePage.includes(THROWAWAY_GATE.lift));
      } finally {
        await env.close();
      }
    });
    // Gone again with its line.
    assert.equal(learnEntry(throwaway.id), null);
    assert.equal(gateText("throwaway_gate"), null);
    assert.ok(!scoringDocs().includes(throwaway.id));
    assert.deepEqual(scoreSite(pageCtx()), before);
  },
});
