/** access.indexing: robots meta tags and X-Robots-Tag, for all robots or named crawlers. */
import assert from "node:assert/strict";
import { indexing } from "../../../../lib/engines/visibility/signals/access/indexing.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.indexing - no directive passes", () => {
  const s = reported(indexing, pageCtx());
  assert.equal(s.status, "pass");
  assert.equal(s.detail, "No noindex or nosnippet directive in meta tags or headers.");
});

Deno.test("access.indexing - noindex for all robots fails, raises the gate and names the directive", () => {
  const ctx = pageCtx({ html: page('<meta name="robots" content="noindex, follow">') });
  const s = reported(indexing, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "noindex", cap: 25 });
  assert.ok(
    s.evidence.length >= 1 && s.evidence.every((e) => /noindex/.test(e)),
    s.evidence.join(),
  );
  const fix = fixOf(indexing, ctx)!;
  assert.equal(fix.what, "Remove noindex from the home page");
  assert.match(fix.how, /<meta name="robots" content="index, follow">/);
});

Deno.test("access.indexing - noindex for one search crawler warns with the fix; its cost is the search crawlers' check", () => {
  const ctx = pageCtx({ homeHeaders: { "x-robots-tag": "bingbot: noindex" } });
  const s = reported(indexing, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  // Counted once, where a robots.txt block of Bingbot is counted (the one model of access).
  assert.equal(s.points, 5);
  assert.match(s.detail, /counted in "AI search crawlers allowed"/);
  const fix = fixOf(indexing, ctx)!;
  assert.equal(fix.what, "Remove noindex for Bingbot");
  assert.equal(fix.cause?.key, "page:noindex-agents");
});

Deno.test("access.indexing - nosnippet warns and the fix allows snippets", () => {
  const ctx = pageCtx({ html: page('<meta name="robots" content="nosnippet">') });
  const s = reported(indexing, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 2.5);
  assert.equal(fixOf(indexing, ctx)!.what, "Allow snippets");
});

Deno.test("access.indexing - each X-Robots-Tag line is read on its own: a scope ends with its line", () => {
  // Joined with ", " these read "googlebot: nosnippet, noindex": noindex for Googlebot alone. As
  // two lines (Google reads each on its own) the second is noindex for every robot.
  const ctx = pageCtx({
    homeHeaders: { "x-robots-tag": "googlebot: nosnippet, noindex" },
    homeHeaderLines: { "x-robots-tag": ["googlebot: nosnippet", "noindex"] },
  });
  const s = reported(indexing, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "noindex", cap: 25 });
  assert.ok(s.evidence.includes("X-Robots-Tag header: noindex"), s.evidence.join(" | "));
});
