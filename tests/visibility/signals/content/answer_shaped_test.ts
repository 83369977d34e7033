/** content.answer_shaped: questions answered, lists and tables. */
import assert from "node:assert/strict";
import { answerShaped } from "../../../../lib/engines/visibility/signals/content/answer_shaped.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("content.answer_shaped - questions with lists and paragraphs pass", () => {
  const body =
    "<h2>How long does delivery take?</h2><p>Two days.</p><h2>Can I return beans?</h2><p>Yes.</p><ul><li>a</li></ul>";
  const s = reported(answerShaped, pageCtx({ html: page("", body) }));
  assert.equal(s.status, "pass", s.detail);
  assert.ok(s.evidence.includes("2 question-style headings"));
});

Deno.test("content.answer_shaped - paragraphs without questions warn, and the fix asks for Q&A sections", () => {
  const ctx = pageCtx({ html: page("", "<ul><li>a</li></ul>") });
  const s = reported(answerShaped, ctx);
  assert.equal(s.status, "warn");
  assert.match(s.detail, /no question-and-answer sections/);
  assert.equal(fixOf(answerShaped, ctx)!.what, "Add question-and-answer sections");
});
