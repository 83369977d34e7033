/** trust.common_crawl: the off-site lookup's result (low impact; blocking CCBot is a choice). */
import assert from "node:assert/strict";
import { commonCrawl } from "../../../../lib/engines/visibility/signals/trust/common_crawl.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("trust.common_crawl - found passes; not found warns (low) and the fix leaves the choice to the owner", () => {
  const found = { status: "found" as const, detail: "40 captures.", url: null };
  const ctx = (c: typeof found | { status: "not_found"; detail: string; url: null }) =>
    pageCtx({ offSite: { wikidata: c, wikipedia: c, commonCrawl: c } });
  assert.equal(evaluate(commonCrawl, ctx(found))!.signal.status, "pass");
  const missing = evaluate(commonCrawl, ctx({ status: "not_found", detail: "None.", url: null }))!;
  assert.deepEqual([missing.signal.status, missing.impact], ["warn", "low"]);
  assert.match(missing.fix!.how, /^By hand: whether to let CCBot in is your choice/);
});
