/** access.site_pages: the share of sampled pages each AI search crawler may read. */
import assert from "node:assert/strict";
import { sitePages } from "../../../../lib/visibility/signals/access/site_pages.ts";
import { crawlersByRole } from "../../../../lib/visibility/crawlers.ts";
import { fixOf, pageCtx, pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";
import { evaluate } from "../../../../lib/visibility/signal.ts";

const ALL = crawlersByRole("search").map((c) => c.token);

Deno.test("access.site_pages - every crawler may read every page: pass", () => {
  const ctx = siteCtx([pageReport("/"), pageReport("/a"), pageReport("/b")]);
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, ["every AI search crawler: may read 3 of 3 pages"]);
});

Deno.test("access.site_pages - one crawler kept from a section warns, and the fix names its template", () => {
  const blocked = { blockedFor: ["PerplexityBot"] };
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/articles/a", blocked),
    pageReport("/articles/b", blocked),
    pageReport("/docs/x"),
    pageReport("/docs/y"),
  ]);
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /^PerplexityBot may not read 2 of 5 pages: \/articles\/a, \/articles\/b/);
  assert.ok(s.evidence.includes("PerplexityBot: may read 3 of 5 pages"));
  assert.equal(fixOf(sitePages, ctx)!.what, "Let AI search crawlers read your /articles/* pages");
});

Deno.test("access.site_pages - most inner pages closed to every crawler raise the gate", () => {
  const hidden = { blockedFor: ALL };
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/a/1", hidden),
    pageReport("/b/1", hidden),
    pageReport("/c/1"),
  ]);
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "pages_blocked_for_ai_search", cap: 35 });
  assert.match(
    s.detail,
    /^2 of 3 pages sampled beyond the home page are closed to every AI search crawler/,
  );
});

Deno.test("access.site_pages - left out when the home page is closed to all, or with no sample", () => {
  assert.equal(
    sitePages.check(siteCtx([pageReport("/", { blockedFor: ALL }), pageReport("/a")])),
    null,
  );
  assert.equal(sitePages.check(pageCtx()), null);
  assert.equal(
    sitePages.check(siteCtx([pageReport("/"), pageReport("/a")], { requested: 1 })),
    null,
  );
});
