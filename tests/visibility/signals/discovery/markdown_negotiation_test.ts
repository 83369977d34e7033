/** discovery.markdown_negotiation: a Markdown version for agents that ask, shown and never scored. */
import assert from "node:assert/strict";
import { markdownNegotiation } from "../../../../lib/engines/visibility/signals/discovery/markdown_negotiation.ts";
import { answer, failed, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("discovery.markdown_negotiation - a text/markdown answer to Accept: text/markdown is recognised, never scored", () => {
  const md = answer("/", "# Shop Example\n\nFresh coffee.\n", 200, {
    "content-type": "text/markdown; charset=utf-8",
    vary: "Accept",
  });
  const s = reported(markdownNegotiation, pageCtx({ markdown: md }));
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
  assert.match(s.detail, /answers Accept: text\/markdown with a Markdown version \(text\/markdown/);
  assert.doesNotMatch(s.detail, /Vary/);
});

Deno.test("discovery.markdown_negotiation - the usual HTML page is said plainly; without Vary: Accept it is noted", () => {
  const html = reported(markdownNegotiation, pageCtx({ markdown: answer("/", "<p>hi</p>") }));
  assert.match(html.detail, /with its usual page/);
  const noVary = reported(
    markdownNegotiation,
    pageCtx({ markdown: answer("/", "# Hi", 200, { "content-type": "text/markdown" }) }),
  );
  assert.match(noVary.detail, /does not say Vary: Accept/);
  assert.equal(reported(markdownNegotiation, pageCtx({ markdown: failed() })).status, "unknown");
  assert.equal(markdownNegotiation.check(pageCtx()), null, "not asked: left out");
});
