/** technical.site_canonicals: canonicals to the home page hide pages; missing ones are noted. */
import assert from "node:assert/strict";
import { siteCanonicals } from "../../../../lib/engines/visibility/signals/technical/site_canonicals.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.site_canonicals - canonicals to the home page fail with high impact", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/blog/a", { canonical: "home" }),
    pageReport("/b"),
  ]);
  const check = evaluate(siteCanonicals, ctx)!;
  assert.equal(check.signal.status, "fail");
  assert.equal(check.impact, "high");
  assert.deepEqual(check.signal.evidence, ["/blog/a: home"]);
  assert.equal(
    check.fix!.what,
    "Point the canonical of your pages under /blog/ (/blog/a) at the page itself",
  );
});

Deno.test("technical.site_canonicals - missing canonicals alone pass, and are named", () => {
  const ctx = siteCtx([pageReport("/"), pageReport("/a", { canonical: "missing" })]);
  const s = evaluate(siteCanonicals, ctx)!.signal;
  assert.equal(s.status, "pass");
  assert.match(s.detail, /^No canonical points elsewhere; 1 of 2 pages declare none/);
});
