/**
 * docs/scoring.md's generated part (lib/engines/visibility/scoring_docs.ts) lists every signal
 * with its sources, every gate with what lifts it, and every crawler of the registry. That the
 * file holds what it generates now is tests/facts_test.ts's job (`deno task facts` writes it).
 */
import assert from "node:assert/strict";
import { scoringDocs } from "../../lib/engines/visibility/scoring_docs.ts";
import { gateTexts, learnEntries } from "../../lib/engines/visibility/learn.ts";
import { CRAWLERS } from "../../lib/engines/visibility/crawlers.ts";

Deno.test("scoring docs - the generated part lists what the registries hold", () => {
  const part = scoringDocs();
  for (const e of learnEntries()) {
    assert.ok(part.includes(`\`${e.id}\``), e.id);
    for (const s of e.sources) assert.ok(part.includes(s.url), `${e.id}: ${s.url}`);
  }
  for (const g of gateTexts()) assert.ok(part.includes(g.lift), g.id);
  for (const c of CRAWLERS) assert.ok(part.includes(`| \`${c.token}\` |`), c.token);
});
