/** structured.site_coverage: the sampled pages' structured data, validated. */
import assert from "node:assert/strict";
import { siteCoverage } from "../../../../lib/engines/visibility/signals/structured/site_coverage.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { fixOf, pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("structured.site_coverage - valid everywhere passes", () => {
  const s = evaluate(siteCoverage, siteCtx([pageReport("/"), pageReport("/a")]))!.signal;
  assert.equal(s.status, "pass");
});

Deno.test("structured.site_coverage - half the pages without any warn, errors count half; the fix names the template", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/blog/a", { structured: "none" }),
    pageReport("/blog/b", { structured: "none" }),
    pageReport("/blog/c", { structured: "invalid" }),
  ]);
  const s = evaluate(siteCoverage, ctx)!.signal;
  assert.equal(s.status, "warn");
  assert.equal(s.points, 1.1);
  assert.deepEqual(s.evidence, ["/blog/a: none", "/blog/b: none", "/blog/c: invalid"]);
  assert.equal(
    fixOf(siteCoverage, ctx)!.what,
    "Add valid structured data to your pages under /blog/ (such as /blog/a)",
  );
});
