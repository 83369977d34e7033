/** trust.wikidata: the off-site lookup's result, unknown when it could not run. */
import assert from "node:assert/strict";
import { wikidata } from "../../../../lib/engines/visibility/signals/trust/wikidata.ts";
import type { OffSite } from "../../../../lib/engines/visibility/record.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const off = (status: "found" | "not_found" | "unknown"): OffSite => {
  const check = {
    status,
    detail: `Wikidata: ${status}`,
    url: status === "found" ? "https://www.wikidata.org/wiki/Q1" : null,
  };
  return { wikidata: check, wikipedia: check, commonCrawl: check };
};

Deno.test("trust.wikidata - found passes with its URL; not found warns with no points and a fix", () => {
  const found = reported(wikidata, pageCtx({ offSite: off("found") }));
  assert.equal(found.status, "pass");
  assert.deepEqual(found.evidence, ["https://www.wikidata.org/wiki/Q1"]);
  const ctx = pageCtx({ offSite: off("not_found") });
  const s = reported(wikidata, ctx);
  assert.deepEqual([s.status, s.points, s.maxPoints], ["warn", 0, 3]);
  assert.match(fixOf(wikidata, ctx)!.how, /official website \(P856\) = https:\/\/shop\.example\//);
});

Deno.test("trust.wikidata - a failed lookup, or none at all, is unknown", () => {
  assert.equal(reported(wikidata, pageCtx({ offSite: off("unknown") })).status, "unknown");
  assert.equal(reported(wikidata, pageCtx()).detail, "The off-site checks could not run.");
});
