/**
 * "Learn more", walking the signal registry (lib/engines/visibility/signals/registry.ts): every registered
 * signal has its explanation with dated https sources, every gate a registered signal can raise has
 * its plain words, condition and what lifts it, every id a real scan emits is registered, and
 * /learn serves them all.
 */
import assert from "node:assert/strict";
import {
  gateText,
  gateTexts,
  learnEntries,
  learnEntry,
} from "../../../lib/engines/visibility/learn.ts";
import { PILLARS } from "../../../lib/engines/visibility/score.ts";
import { EXAMPLE_RECORD } from "../../../lib/features/visibility/views/example_report.tsx";
import { LEARN_INDEX_PATH, learnPath } from "../../../lib/kit/report_urls.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { datedSourceProblems } from "../../../lib/kit/dated_source.ts";

const signals = PILLARS.flatMap((p) => p.signals.map((s) => ({ pillar: p.id, s })));

Deno.test("[learn] every registered signal is explained once, in the pillar it names", () => {
  assert.ok(signals.length >= 47, `${signals.length} signals registered`);
  const ids = signals.map(({ s }) => s.id);
  assert.deepEqual([...new Set(ids)], ids, "no id is registered twice");
  for (const { pillar, s } of signals) {
    assert.equal(s.pillar, pillar, `${s.id} is listed under its own pillar`);
    assert.equal(s.id.split(".")[0], pillar, `${s.id} starts with its pillar`);
    const e = learnEntry(s.id);
    assert.ok(e, `${s.id} has a learn entry`);
    assert.equal(e.title, s.title);
    assert.equal(e.pillar, pillar);
  }
  assert.deepEqual(learnEntries().map((e) => e.id), ids, "the entries are the registry, in order");
  for (const p of PILLARS) {
    assert.ok(learnEntry(`${p.id}.not_evaluated`), `${p.id}.not_evaluated (a pillar that failed)`);
  }
  assert.equal(learnEntry("access.nope"), null);
  // And what a real scan emits (the off-site checks included) is registered.
  for (const p of EXAMPLE_RECORD.result!.pillars) {
    for (const s of p.signals) assert.ok(ids.includes(s.id), s.id);
  }
});

Deno.test("[learn] every entry says what, why and how, and cites dated https documentation", () => {
  for (const e of learnEntries()) {
    assert.ok(e.what.length > 20 && e.why.length > 20 && e.how.length > 20, e.id);
    assert.ok(e.sources.length >= 1, `${e.id} cites its sources`);
    for (const s of e.sources) {
      assert.deepEqual(datedSourceProblems(s), [], `${e.id}: ${s.url}`);
      assert.ok(s.by && s.title, `${e.id}: ${s.url} names its publisher and title`);
    }
  }
  const cited = new Set(learnEntries().flatMap((e) => e.sources.map((s) => s.url)));
  for (
    const must of [
      "https://datatracker.ietf.org/doc/html/rfc9309",
      "https://llmstxt.org/",
      "https://developers.openai.com/api/docs/bots",
      "https://developers.google.com/search/docs/appearance/ai-features",
    ]
  ) assert.ok(cited.has(must), must);
});

Deno.test("[learn] every gate has plain words, a cap, its condition and what lifts it", () => {
  const gates = gateTexts();
  assert.ok(gates.length >= 6, gates.map((g) => g.id).join(", "));
  // A gate only older records carry still reads in plain words.
  assert.match(gateText("edge_blocks_ai")!.name, /CDN or firewall/);
  for (const g of gates) {
    assert.ok(g.name && g.why && g.when && g.lift, `${g.id} explained`);
    assert.ok(g.cap > 0 && g.cap < 100, `${g.id} caps below 100`);
    assert.ok(g.signals.length >= 1, `${g.id} has signals`);
    for (const id of g.signals) {
      const s = signals.find((x) => x.s.id === id)!.s;
      // A gate shared by two signals is one definition (the owner's), not two that may drift.
      assert.equal(s.gate?.id, g.id);
      const { signals: _, ...def } = gates.find((x) => x.id === g.id)!;
      assert.deepEqual({ ...s.gate }, def);
      assert.equal(learnEntry(id)!.gate?.id, g.id);
    }
  }
  assert.deepEqual(gateText("blanket_disallow")!.signals, [
    "access.robots_txt",
    "access.blanket_disallow",
  ]);
  assert.equal(gateText("no_such_gate"), null);
});

Deno.test("GET /learn and /learn/:id - every check has a page; an unknown one is a 404", async () => {
  const env = await startAppEnv();
  try {
    const index = await env.app.request(LEARN_INDEX_PATH);
    assert.equal(index.status, 200);
    assert.match(index.headers.get("content-type") ?? "", /text\/html/);
    const html = await index.text();
    // Text is escaped once: "<title>" reads as such in the browser, never "&lt;title>".
    assert.doesNotMatch(html, /&amp;(lt|gt|quot|amp);/);
    for (const e of learnEntries()) {
      assert.ok(html.includes(`href="${learnPath(e.id)}"`), `the index links ${e.id}`);
      const res = await env.app.request(learnPath(e.id));
      assert.equal(res.status, 200, e.id);
      const page = await res.text();
      assert.match(page, /Why AI systems care/);
      assert.match(page, /How we test it/);
      assert.doesNotMatch(page, /&amp;(lt|gt|quot|amp);/, `${e.id}: escaped twice`);
      for (const s of e.sources) assert.ok(page.includes(`href="${s.url}"`), `${e.id}: ${s.url}`);
      if (e.gate) {
        assert.ok(page.includes(`caps the whole score at ${e.gate.cap}`), `${e.id}: its gate`);
        assert.ok(page.includes("It lifts when"), `${e.id}: what lifts it`);
      }
    }
    const missing = await env.app.request(learnPath("access.nope"));
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const post = await env.app.request(LEARN_INDEX_PATH, { method: "POST" });
    assert.equal(post.status, 405);
    await post.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("[learn] the CLI says what caps the score, its evidence, what lifts it, and what each issue's check is about", async () => {
  const { formatReport } = await import("../../../lib/engines/visibility/format.ts");
  const record = structuredClone(EXAMPLE_RECORD);
  const r = record.result!;
  const edge = r.pillars[0].signals.find((s) => s.id === "access.edge")!;
  edge.status = "fail";
  edge.gate = { id: "edge_blocks_ai", cap: 35 };
  edge.evidence = ["OAI-SearchBot User-Agent: HTTP 403"];
  r.score = 35;
  const out = formatReport(record, { learnBase: "https://checker.example.org/" });
  assert.match(out, /capped at 35 because the site's CDN or firewall turns AI crawlers away/);
  assert.match(out, /Evidence: OAI-SearchBot User-Agent: HTTP 403\./);
  assert.ok(out.includes(`It lifts when: ${gateText("edge_blocks_ai")!.lift}`));
  assert.match(out, /without the cap the site would score \d+/);
  const first = r.topIssues[0];
  assert.ok(out.includes(`About this check: ${learnEntry(first.id)!.what}`));
  assert.ok(out.includes(`Learn more: https://checker.example.org${learnPath(first.id)}`));
});
