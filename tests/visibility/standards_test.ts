/**
 * Every rule the report judges by carries a source and the day it was checked: the formats and
 * drafts we read (standards.ts), the shared sources (sources.ts) and every signal's learn sources.
 */
import assert from "node:assert/strict";
import { STANDARDS, standards } from "../../lib/engines/visibility/standards.ts";
import { SOURCES } from "../../lib/engines/visibility/sources.ts";
import { datedSourceProblems } from "../../lib/kit/dated_source.ts";
import { registeredSignals } from "../../lib/engines/visibility/learn.ts";

Deno.test("standards - every format and draft we read names its version, source and date", () => {
  for (const s of standards()) {
    assert.deepEqual(datedSourceProblems(s), [], s.id);
    assert.ok(s.version.trim() && s.reads.trim(), s.id);
  }
  assert.match(STANDARDS.aiprefVocab.version, /^draft-ietf-aipref-vocab-\d\d /);
  assert.match(STANDARDS.aiprefAttach.version, /^draft-ietf-aipref-attach-\d\d /);
  assert.match(STANDARDS.llmsTxt.version, /^v2 /);
});

Deno.test("standards - every shared source and every signal's learn source is dated", () => {
  for (const [key, s] of Object.entries(SOURCES)) assert.deepEqual(datedSourceProblems(s), [], key);
  for (const signal of registeredSignals()) {
    for (const s of signal.learn.sources) {
      assert.deepEqual(datedSourceProblems(s), [], `${signal.id}: ${s.url}`);
    }
  }
});
