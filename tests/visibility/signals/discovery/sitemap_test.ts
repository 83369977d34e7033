/** discovery.sitemap: a sitemap with URLs and honest dates. */
import assert from "node:assert/strict";
import { sitemap } from "../../../../lib/engines/visibility/signals/discovery/sitemap.ts";
import { answer, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const xml = (entries: string) =>
  answer(
    "/sitemap.xml",
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`,
    200,
    { "content-type": "application/xml" },
  );

Deno.test("discovery.sitemap - URLs with recent lastmod pass", () => {
  const s = reported(
    sitemap,
    pageCtx({
      sitemap: xml("<url><loc>https://shop.example/</loc><lastmod>2026-11-01</lastmod></url>"),
    }),
  );
  assert.equal(s.status, "pass", s.detail);
});

Deno.test("discovery.sitemap - no lastmod warns and the fix says what to correct", () => {
  const ctx = pageCtx({ sitemap: xml("<url><loc>https://shop.example/</loc></url>") });
  const s = reported(sitemap, ctx);
  assert.equal(s.status, "warn");
  assert.match(s.detail, /no <lastmod> dates/);
  const fix = fixOf(sitemap, ctx)!;
  assert.equal(fix.what, "Keep the sitemap accurate");
  assert.match(fix.how, /^By hand: fix no <lastmod> dates: generate each <lastmod> from/);
  assert.match(fix.how, /\n\nAfterwards, check that https:\/\/shop\.example\/sitemap\.xml lists/);
});

Deno.test("discovery.sitemap - a year-old newest lastmod warns (by the injected clock)", () => {
  const s = reported(
    sitemap,
    pageCtx({
      sitemap: xml("<url><loc>https://shop.example/</loc><lastmod>2025-01-01</lastmod></url>"),
    }),
  );
  assert.match(s.detail, /the newest <lastmod> is 2025-01-01, over a year old/);
});

Deno.test("discovery.sitemap - none fails; the fix is a skeleton to publish", () => {
  const ctx = pageCtx();
  assert.equal(reported(sitemap, ctx).status, "fail");
  const fix = fixOf(sitemap, ctx)!;
  assert.equal(fix.what, "Publish a sitemap.xml");
  assert.match(fix.how, /<urlset/);
});
