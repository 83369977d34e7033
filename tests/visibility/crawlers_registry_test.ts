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
