/** content.image_alt: images described in words. */
import assert from "node:assert/strict";
import { imageAlt } from "../../../../lib/engines/visibility/signals/content/image_alt.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("content.image_alt - no images is not applicable", () => {
  const s = reported(imageAlt, pageCtx());
  assert.equal(s.status, "na");
  assert.equal(s.maxPoints, 0);
});

Deno.test("content.image_alt - points in proportion, missing alts named", () => {
  const ctx = pageCtx({ html: page("", '<img src="/a.jpg" alt="Beans"><img src="/b.jpg">') });
  const s = reported(imageAlt, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 1);
  assert.deepEqual(s.evidence, ["no alt: https://shop.example/b.jpg"]);
  assert.equal(fixOf(imageAlt, ctx)!.what, "Describe images with alt text");
});
