/** trust.wikipedia: the off-site lookup's result (low impact). */
import assert from "node:assert/strict";
import { wikipedia } from "../../../../lib/engines/visibility/signals/trust/wikipedia.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("trust.wikipedia - not found warns with low impact; the fix warns against writing your own article", () => {
  const check = { status: "not_found" as const, detail: "No article.", url: null };
  const ctx = pageCtx({ offSite: { wikidata: check, wikipedia: check, commonCrawl: check } });
  const result = evaluate(wikipedia, ctx)!;
  assert.deepEqual([result.signal.status, result.signal.maxPoints, result.impact], [
    "warn",
    2,
    "low",
  ]);
  assert.match(result.fix!.how, /^By hand: do not write your own article/);
});
