/** technical.site_titles: each sampled page its own title and description. */
import assert from "node:assert/strict";
import { siteTitles } from "../../../../lib/engines/visibility/signals/technical/site_titles.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.site_titles - shared titles (marked by the site view) and missing descriptions are named", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/a", { title: "Shop" }),
    pageReport("/b", { title: "Shop" }),
    pageReport("/c", { description: null }),
    pageReport("/d"),
    pageReport("/e"),
    pageReport("/f"),
  ]);
  const check = evaluate(siteTitles, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.match(check.signal.detail, /1 of 7 pages have no meta description: \/c/);
  assert.match(check.signal.detail, /2 of 7 pages share their title with another: \/a, \/b/);
  assert.deepEqual(check.signal.evidence.sort(), ["/a", "/b", "/c"]);
  assert.equal(
    check.fix!.what,
    "Give your top-level pages (such as /c) their own titles and descriptions",
  );
});
