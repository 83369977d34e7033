/** technical.https: the page ends up on https. */
import assert from "node:assert/strict";
import { https } from "../../../../lib/engines/visibility/signals/technical/https.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.https - https passes; plain http fails with the redirect fix", () => {
  assert.equal(reported(https, pageCtx()).status, "pass");
  const ctx = pageCtx({ homeUrl: "http://shop.example/" });
  assert.equal(reported(https, ctx).status, "fail");
  assert.match(fixOf(https, ctx)!.how, /301-redirect every http:\/\/ URL to https:\/\//);
});
