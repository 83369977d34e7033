/** discovery.site_sample: how the sample was read, with the page table (not scored). */
import assert from "node:assert/strict";
import { siteSample } from "../../../../lib/engines/visibility/signals/discovery/site_sample.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageCtx, pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("discovery.site_sample - the table rows and the reading notes, as info", () => {
  const ctx = siteCtx(
    [
      pageReport("/"),
      pageReport("/a"),
      pageReport("/private/x", { state: "robots", httpStatus: null }),
    ],
    { crawlDelaySec: 2 },
  );
  const s = evaluate(siteSample, ctx)!.signal;
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
  assert.match(s.detail, /^Read 2 of 3 sampled pages \(home page included\)/);
  assert.match(s.detail, /pages were read 2 s apart/);
  assert.match(s.detail, /robots\.txt keeps our crawler from \/private\/x/);
  assert.deepEqual(s.pages!.map((p) => p.state), ["read", "read", "robots"]);
  assert.deepEqual(s.evidence, []);
});

Deno.test("discovery.site_sample - only with a sample of more than the home page asked for", () => {
  assert.equal(siteSample.check(pageCtx()), null);
  assert.equal(siteSample.check(siteCtx([pageReport("/")], { requested: 1 })), null);
  const alone = evaluate(siteSample, siteCtx([pageReport("/")], { candidates: 0 }))!.signal;
  assert.match(alone.detail, /^Only the home page was sampled: no other page/);
});
