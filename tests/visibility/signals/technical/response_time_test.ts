/** technical.response_time: time to first byte. */
import assert from "node:assert/strict";
import { responseTime } from "../../../../lib/engines/visibility/signals/technical/response_time.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.response_time - under 800 ms passes, under 2 s warns, slower fails", () => {
  assert.equal(reported(responseTime, pageCtx({ home: { ttfbMs: 300 } })).status, "pass");
  assert.equal(reported(responseTime, pageCtx({ home: { ttfbMs: 1200 } })).status, "warn");
  const slow = pageCtx({ home: { ttfbMs: 2500 } });
  const s = reported(responseTime, slow);
  assert.equal(s.status, "fail");
  assert.equal(s.detail, "The home page's first byte arrived after 2500 ms.");
  assert.equal(fixOf(responseTime, slow)!.what, "Answer faster");
});
