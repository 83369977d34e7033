/** trust.author_dates: who wrote the page and when, in any form it states them. */
import assert from "node:assert/strict";
import {
  authorDates,
  splitPeople,
} from "../../../../lib/engines/visibility/signals/trust/author_dates.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("trust.author_dates - a byline meta and a time element pass; each person counted once", () => {
  const html = page(
    '<meta name="author" content="Jane Doe, Bob Roe and Jane Doe">',
    '<time datetime="2026-11-01">1 Nov</time>',
  );
  const s = reported(authorDates, pageCtx({ html }));
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, ["author: Jane Doe", "author: Bob Roe", "date: 2026-11-01"]);
});

Deno.test("trust.author_dates - neither fails (low impact) and the fix is a byline template", () => {
  const ctx = pageCtx();
  assert.equal(reported(authorDates, ctx).status, "fail");
  // Static HTML near the top of the page: the author linked rel="author", the date in <time>,
  // forms every reader of authorship (our own check included) understands.
  const how = fixOf(authorDates, ctx)!.how;
  assert.match(how, /^Paste near the top of the main text of https:\/\/shop\.example\//);
  assert.match(how, /<a rel="author" href="[^"]+">FILL-IN: the author's name<\/a>/);
  assert.match(how, /<time datetime="FILL-IN: YYYY-MM-DD">/);
  assert.doesNotMatch(how, /\{\{|\{%|<\?php/, "no template language on a static site");
  assert.deepEqual(splitPeople("By Ann Poe & Bo Li"), ["Ann Poe", "Bo Li"]);
});
