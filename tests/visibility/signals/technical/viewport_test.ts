/** technical.viewport: a mobile viewport (low impact). */
import assert from "node:assert/strict";
import { viewport } from "../../../../lib/engines/visibility/signals/technical/viewport.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.viewport - set passes; missing warns with low impact and the tag", () => {
  assert.equal(evaluate(viewport, pageCtx())!.signal.status, "pass");
  const check = evaluate(viewport, pageCtx({ html: "<!doctype html><title>t</title>" }))!;
  assert.deepEqual([check.signal.status, check.impact], ["warn", "low"]);
  assert.match(check.fix!.how, /width=device-width, initial-scale=1/);
});
