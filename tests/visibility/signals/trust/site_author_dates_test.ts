/** trust.site_author_dates: the sampled article pages name an author and a date. */
import assert from "node:assert/strict";
import { siteAuthorDates } from "../../../../lib/engines/visibility/signals/trust/site_author_dates.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

const article = (path: string, author: boolean, date: boolean) =>
  pageReport(path, { type: "article", author, date });

Deno.test("trust.site_author_dates - missing bylines warn, each absence half a page", () => {
  const ctx = siteCtx([
    pageReport("/"),
    article("/blog/a", true, true),
    article("/blog/b", true, true),
    article("/blog/c", false, true),
  ]);
  const check = evaluate(siteAuthorDates, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.signal.detail, "1 of 3 article pages name no author: /blog/c.");
  assert.equal(check.signal.points, 2.5);
  // The home page names no author either: one byline fix for both, under the article pages'
  // template (the pages the change mostly concerns).
  assert.equal(check.fix!.what, "Show who wrote each page and when");
  assert.equal(check.fix!.cause?.key, "template:article");
  assert.match(
    check.fix!.how,
    /of each of these pages: https:\/\/shop\.example\/blog\/c, https:\/\/shop\.example\/,/,
  );
});

Deno.test("trust.site_author_dates - no article page, no signal", () => {
  assert.equal(siteAuthorDates.check(siteCtx([pageReport("/"), pageReport("/a")])), null);
});
