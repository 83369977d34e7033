/** technical.canonical: one canonical, on this site. */
import assert from "node:assert/strict";
import { canonical } from "../../../../lib/engines/visibility/signals/technical/canonical.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.canonical - self passes; another site warns and the fix explains syndication", () => {
  const self = page('<link rel="canonical" href="https://shop.example/">');
  assert.equal(reported(canonical, pageCtx({ html: self })).status, "pass");
  const ctx = pageCtx({ html: page('<link rel="canonical" href="https://other.example/post">') });
  const s = reported(canonical, ctx);
  assert.equal(s.status, "warn");
  assert.match(s.detail, /points to another site/);
  assert.match(fixOf(canonical, ctx)!.how, /^It depends on whose page this is/);
});

Deno.test("technical.canonical - none warns with the tag to add", () => {
  const ctx = pageCtx();
  assert.equal(reported(canonical, ctx).detail, "The page has no canonical link.");
  assert.match(
    fixOf(canonical, ctx)!.how,
    /<link rel="canonical" href="https:\/\/shop\.example\/">/,
  );
});
