/**
 * The crawler registry is data with a source and a date per entry: every entry names its vendor's
 * page and the day it was checked, and the crawlers announced in 2025-2026 that could be verified
 * on their vendors' pages are there.
 */
import assert from "node:assert/strict";
import { REGISTRY } from "../../lib/engines/visibility/crawlers_registry.ts";
import {
  CRAWLERS,
  crawlersByRole,
  mayIgnoreRobots,
} from "../../lib/engines/visibility/crawlers.ts";
import { datedSourceProblems } from "../../lib/kit/dated_source.ts";
import { productOf, PRODUCTS } from "../../lib/engines/visibility/products.ts";
import { probedCrawlers } from "../../lib/engines/visibility/edge_probe.ts";

Deno.test("crawler registry - every entry has its vendor's page and the day it was checked", () => {
  for (const c of REGISTRY) {
    assert.deepEqual(datedSourceProblems(c), [], c.token);
    assert.ok(c.vendor.trim(), `${c.token}: vendor`);
    assert.ok(["yes", "may_ignore", "not_stated"].includes(c.robotsTxt), `${c.token}: robots.txt`);
    if (c.ipRanges !== undefined) {
      assert.deepEqual(datedSourceProblems({ url: c.ipRanges, checked: c.checked }), []);
    }
  }
  const tokens = REGISTRY.map((c) => c.token.toLowerCase());
  assert.equal(new Set(tokens).size, tokens.length, "one entry per token");
});

Deno.test("crawler registry - an entry without a source or a date is caught", () => {
  const entry = REGISTRY[0];
  assert.notDeepEqual(datedSourceProblems({ ...entry, url: "" }), []);
  assert.notDeepEqual(datedSourceProblems({ ...entry, checked: "" }), []);
  assert.notDeepEqual(datedSourceProblems({ ...entry, checked: "2026-02-30" }), []);
  assert.notDeepEqual(datedSourceProblems({ ...entry, url: "http://example.com/bots" }), []);
});

Deno.test("crawler registry - the 2025-2026 crawlers verified on their vendors' pages are in, with their purpose", () => {
  const by = (t: string) => CRAWLERS.find((c) => c.token === t);
  assert.equal(by("Google-Agent")?.purpose, "agent");
  assert.equal(by("Google-Agent")?.role, "user", "an agent acting for a user is judged as one");
  assert.equal(mayIgnoreRobots("Google-Agent"), true, "Google: user-triggered, ignores robots.txt");
  assert.equal(
    by("Google-Agent")?.ipRanges,
    "https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json",
  );
  assert.equal(by("Google-NotebookLM")?.role, "user");
  assert.equal(by("Google-GeminiNotebook")?.role, "user");
  assert.equal(by("MistralAI-Index")?.role, "search");
  assert.equal(by("MistralAI-Training")?.role, "training");
  // Checked on OpenAI's help article for advertisers: reported, never scored.
  assert.equal(by("OAI-AdsBot")?.role, "ads");
  assert.equal(by("AMZN-User")?.role, "user");
  // Every role the scoring reads is populated.
  for (const role of ["search", "user", "training"] as const) {
    assert.ok(crawlersByRole(role).length > 3, role);
  }
});

Deno.test("crawler registry - every entry feeds a known AI product; an unverifiable token says why and never counts", () => {
  for (const c of CRAWLERS) {
    assert.ok(productOf(c.product), `${c.token}: product ${c.product}`);
    if (c.verified === false) {
      assert.ok(c.unverified?.trim(), `${c.token}: says why it is unverifiable`);
      assert.equal(c.counts, false, `${c.token} is never counted`);
      assert.ok(!probedCrawlers().some((p) => p.token === c.token), `${c.token} is never probed`);
    }
    if (c.retired) assert.equal(c.counts, false, `${c.token}: retired, never counted`);
  }
  // Checked on 2026-12-06: ShapBot on Parallel's page (verified, with its address list); the Kimi
  // tokens, Google-CloudVertexBot, meta-externalads and Shap-User could not be read on their
  // vendors' pages: unverifiable.
  const by = (t: string) => CRAWLERS.find((c) => c.token === t)!;
  assert.equal(by("ShapBot").counts, true);
  assert.equal(by("ShapBot").ipRanges, "https://docs.parallel.ai/resources/shapbot.json");
  for (const t of ["KimiBot", "Kimi-SearchBot", "Kimi-User", "Google-CloudVertexBot"]) {
    assert.equal(by(t).verified, false, t);
  }
  for (const t of ["meta-externalads", "Shap-User", "YouBot", "Bytespider"]) {
    assert.equal(by(t).verified, false, t);
  }
  for (const t of ["ClaudeBot", "Claude-User", "Claude-SearchBot"]) {
    assert.equal(by(t).ipRanges, "https://claude.com/crawling/bots.json", t);
  }
  // An entry without a source or a date still fails, new entries included.
  assert.notDeepEqual(datedSourceProblems({ ...by("ShapBot"), checked: "" }), []);
  // Every product of the list is fed by some crawler, and every id is known.
  for (const p of PRODUCTS) assert.ok(CRAWLERS.some((c) => c.product === p.id), p.id);
});
