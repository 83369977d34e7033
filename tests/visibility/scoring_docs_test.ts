/**
 * docs/scoring.md's generated part (every signal, gate and source) is what the registry says now:
 * the file, as `deno fmt` left it, equals the file regenerated from the registry, table padding
 * aside. Regenerate with `deno run --allow-read --allow-write --allow-run
 * lib/engines/visibility/scoring_docs.ts`.
 */
import assert from "node:assert/strict";
import {
  DOCS_BEGIN,
  DOCS_END,
  normaliseTables,
  scoringDocs,
  withScoringDocs,
} from "../../lib/engines/visibility/scoring_docs.ts";
import { gateTexts, learnEntries } from "../../lib/engines/visibility/learn.ts";

const DOCS = new URL("../../docs/scoring.md", import.meta.url);

Deno.test("scoring docs - docs/scoring.md lists what the registry holds, no more, no less", async () => {
  const text = await Deno.readTextFile(DOCS);
  assert.ok(text.includes(DOCS_BEGIN) && text.includes(DOCS_END));
  assert.equal(
    normaliseTables(text),
    normaliseTables(withScoringDocs(text)),
    "docs/scoring.md is stale: run deno run --allow-read --allow-write --allow-run lib/engines/visibility/scoring_docs.ts",
  );
  const part = text.slice(text.indexOf(DOCS_BEGIN), text.indexOf(DOCS_END));
  for (const e of learnEntries()) {
    assert.ok(part.includes(`\`${e.id}\``), e.id);
    for (const s of e.sources) assert.ok(part.includes(s.url), `${e.id}: ${s.url}`);
  }
  for (const g of gateTexts()) assert.ok(part.includes(g.lift), g.id);
});

Deno.test("scoring docs - the comparison ignores table padding only", () => {
  const docs = scoringDocs();
  const padded = docs.replace(/\| /g, "|    ").replace(/\| --- /g, "| -------- ");
  assert.equal(normaliseTables(padded), normaliseTables(docs));
  assert.notEqual(
    normaliseTables(docs.replace("`access.edge`", "`access.edges`")),
    normaliseTables(docs),
  );
  assert.throws(() => withScoringDocs("no markers here"), /markers/);
});
