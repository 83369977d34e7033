/** technical.description: a meta description of 50-170 characters. */
import assert from "node:assert/strict";
import { description } from "../../../../lib/engines/visibility/signals/technical/description.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.description - none fails; a good one passes with its text as evidence", () => {
  const none = pageCtx();
  assert.equal(reported(description, none).status, "fail");
  assert.match(
    fixOf(description, none)!.how,
    /^Paste into the <head> of https:\/\/shop\.example\/[^\n]*\n\n```html\n<meta name="description" content="FILL-IN: one or two sentences/,
  );
  const text = "Small-batch coffee roasted every week and shipped fresh to your door.";
  const s = reported(
    description,
    pageCtx({ html: page(`<meta name="description" content="${text}">`) }),
  );
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, [text]);
});
