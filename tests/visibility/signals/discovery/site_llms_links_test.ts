/** discovery.site_llms_links: llms.txt's links answer 2xx (worth no more than llms.txt). */
import assert from "node:assert/strict";
import { siteLlmsLinks } from "../../../../lib/engines/visibility/signals/discovery/site_llms_links.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

const pages = [pageReport("/"), pageReport("/a")];

Deno.test("discovery.site_llms_links - a dead link warns and the fix lists it", () => {
  const ctx = siteCtx(pages, {
    llmsLinks: { total: 6, checked: 4, broken: ["https://shop.example/old"] },
  });
  const check = evaluate(siteLlmsLinks, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.signal.maxPoints, 1);
  assert.equal(check.signal.points, 0.8);
  assert.equal(
    check.fix!.how,
    "By hand: update or remove these links in https://shop.example/llms.txt: https://shop.example/old.\n\nAfterwards, check that every link in llms.txt opens a page (HTTP 200).",
  );
});

Deno.test("discovery.site_llms_links - all good passes; nothing checked, no signal", () => {
  const ok = siteCtx(pages, { llmsLinks: { total: 2, checked: 2, broken: [] } });
  assert.equal(evaluate(siteLlmsLinks, ok)!.signal.status, "pass");
  assert.equal(
    siteLlmsLinks.check(siteCtx(pages, { llmsLinks: { total: 2, checked: 0, broken: [] } })),
    null,
  );
  assert.equal(siteLlmsLinks.check(siteCtx(pages)), null);
});
