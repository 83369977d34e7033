/** discovery.llms_full: optional; a point when present, info when absent. */
import assert from "node:assert/strict";
import { llmsFull } from "../../../../lib/engines/visibility/signals/discovery/llms_full.ts";
import { answer, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("discovery.llms_full - present passes, absent is info with no fix", () => {
  const present = answer("/llms-full.txt", "# Shop\n\nAll our pages.", 200, {
    "content-type": "text/plain",
  });
  assert.equal(reported(llmsFull, pageCtx({ llmsFull: present })).status, "pass");
  const none = pageCtx();
  const s = reported(llmsFull, none);
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
  assert.equal(fixOf(llmsFull, none), null);
});
