/** technical.open_graph: og:title, og:description, og:image. */
import assert from "node:assert/strict";
import { openGraph } from "../../../../lib/engines/visibility/signals/technical/open_graph.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.open_graph - points per tag; the fix fills what the page already says", () => {
  const ctx = pageCtx({ html: page('<meta property="og:title" content="Coffee">') });
  const s = reported(openGraph, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 0.7);
  assert.equal(s.detail, "Missing og:description, og:image.");
  const how = fixOf(openGraph, ctx)!.how;
  assert.match(how, /og:image" content="FILL-IN: https URL of an image"/);
  assert.doesNotMatch(how, /property="og:title"/);
});
