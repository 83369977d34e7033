/**
 * "Learn more": every signal id the pillars can emit has an explanation (walking the pillar sources
 * in lib/visibility/pillars/ and the site audit's in lib/visibility/audit/), every gate has its plain words, and /learn serves them all.
 */
import assert from "node:assert/strict";
import { GATE_SIGNALS, GATE_TEXT, learnEntries, learnEntry } from "../lib/visibility/learn.ts";
import { PILLARS } from "../lib/visibility/score.ts";
import { EXAMPLE_RECORD } from "../lib/ui/example_report.tsx";
import { LEARN_INDEX_PATH, learnPath } from "../lib/report_urls.ts";
import { startAppEnv } from "./helpers/app_env.ts";

/** Where signals are emitted: the pillars, and the site audit's site-level checks. */
const SIGNAL_DIRS = [
  new URL("../lib/visibility/pillars/", import.meta.url),
  new URL("../lib/visibility/audit/", import.meta.url),
];

/** Every quoted "<pillar>.<name>" and every gate id written in the pillar sources. */
async function pillarSources(): Promise<{ ids: Set<string>; gates: Set<string> }> {
  const pillarIds = PILLARS.map((p) => p.id).join("|");
  const idRe = new RegExp(`["'\`]((?:${pillarIds})\\.[a-z_]+)["'\`]`, "g");
  const ids = new Set<string>();
  const gates = new Set<string>();
  for (const dir of SIGNAL_DIRS) {
    for await (const f of Deno.readDir(dir)) {
      if (!f.name.endsWith(".ts")) continue;
      const src = await Deno.readTextFile(new URL(f.name, dir));
      for (const m of src.matchAll(idRe)) ids.add(m[1]);
      for (const m of src.matchAll(/\{\s*id:\s*"([a-z_]+)",\s*cap:\s*\d+\s*\}/g)) gates.add(m[1]);
    }
  }
  return { ids, gates };
}

Deno.test("[learn] every signal id the pillars emit has an explanation, and no entry is stale", async () => {
  const { ids } = await pillarSources();
  assert.ok(ids.size >= 35, `${ids.size} ids found in the pillar sources`);
  for (const id of ids) assert.ok(learnEntry(id), `${id} has a learn entry`);
  for (const p of PILLARS) {
    assert.ok(learnEntry(`${p.id}.not_evaluated`), `${p.id}.not_evaluated (a pillar that failed)`);
  }
  for (const e of learnEntries()) assert.ok(ids.has(e.id), `${e.id} is a signal a pillar emits`);
  // And what a real scan emits (the off-site checks included).
  for (const p of EXAMPLE_RECORD.result!.pillars) {
    for (const s of p.signals) assert.ok(learnEntry(s.id), s.id);
  }
});

Deno.test("[learn] every entry says what, why and how, and cites https documentation", () => {
  for (const e of learnEntries()) {
    assert.ok(e.what.length > 20 && e.why.length > 20 && e.how.length > 20, e.id);
    assert.ok(e.sources.length >= 1, `${e.id} cites its sources`);
    for (const s of e.sources) assert.match(s.url, /^https:\/\//, `${e.id}: ${s.url}`);
    assert.equal(e.pillar, e.id.split(".")[0]);
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

Deno.test("[learn] every gate the pillars set has plain words and points at its signals", async () => {
  const { gates, ids } = await pillarSources();
  assert.ok(gates.size >= 5, [...gates].join(", "));
  for (const g of gates) {
    assert.ok(GATE_TEXT[g]?.name && GATE_TEXT[g]?.why, `${g} explained`);
    assert.ok(GATE_SIGNALS[g]?.length, `${g} has signals`);
    for (const id of GATE_SIGNALS[g]) assert.ok(ids.has(id), `${g} -> ${id}`);
  }
});

Deno.test("GET /learn and /learn/:id - every check has a page; an unknown one is a 404", async () => {
  const env = await startAppEnv();
  try {
    const index = await env.app.request(LEARN_INDEX_PATH);
    assert.equal(index.status, 200);
    assert.match(index.headers.get("content-type") ?? "", /text\/html/);
    const html = await index.text();
    for (const e of learnEntries()) {
      assert.ok(html.includes(`href="${learnPath(e.id)}"`), `the index links ${e.id}`);
      const res = await env.app.request(learnPath(e.id));
      assert.equal(res.status, 200, e.id);
      const page = await res.text();
      assert.match(page, /Why AI systems care/);
      assert.match(page, /How we test it/);
      for (const s of e.sources) assert.ok(page.includes(`href="${s.url}"`), `${e.id}: ${s.url}`);
    }
    const gate = await (await env.app.request(learnPath("access.edge"))).text();
    assert.match(gate, /caps the whole score/);
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

Deno.test("[learn] the CLI says what caps the score and what each issue's check is about", async () => {
  const { formatReport } = await import("../lib/visibility/format.ts");
  const record = structuredClone(EXAMPLE_RECORD);
  const r = record.result!;
  const edge = r.pillars[0].signals.find((s) => s.id === "access.edge")!;
  edge.status = "fail";
  edge.gate = { id: "edge_blocks_ai", cap: 35 };
  r.score = 35;
  const out = formatReport(record, { learnBase: "https://checker.example.org/" });
  assert.match(out, /capped at 35 because the site's CDN or firewall turns AI crawlers away/);
  assert.match(out, /without the cap the site would score \d+/);
  const first = r.topIssues[0];
  assert.ok(out.includes(`About this check: ${learnEntry(first.id)!.what}`));
  assert.ok(out.includes(`Learn more: https://checker.example.org${learnPath(first.id)}`));
});
