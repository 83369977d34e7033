/** technical.page_size: HTML crawlers read in full. */
import assert from "node:assert/strict";
import { pageSize } from "../../../../lib/engines/visibility/signals/technical/page_size.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.page_size - small passes; over 2 MB warns; cut at the cap fails", () => {
  assert.equal(reported(pageSize, pageCtx()).status, "pass");
  assert.equal(reported(pageSize, pageCtx({ home: { bytes: 3 * 1024 * 1024 } })).status, "warn");
  const cut = pageCtx({ home: { bytes: 5 * 1024 * 1024, truncated: true } });
  assert.match(reported(pageSize, cut).detail, /larger than 5\.0 MB and was cut/);
  assert.equal(fixOf(pageSize, cut)!.what, "Slim the HTML down");
});
