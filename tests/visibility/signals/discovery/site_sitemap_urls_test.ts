/** discovery.site_sitemap_urls: the sitemap's sampled URLs are live, indexable, open. */
import assert from "node:assert/strict";
import { siteSitemapUrls } from "../../../../lib/engines/visibility/signals/discovery/site_sitemap_urls.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

Deno.test("discovery.site_sitemap_urls - errors and noindex pages in the sitemap warn; time-outs are not counted", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/a"),
    pageReport("/b"),
    pageReport("/c"),
    pageReport("/d"),
    pageReport("/gone", { httpStatus: 404 }),
    pageReport("/hidden", { noindex: true }),
    pageReport("/slow", { state: "error", httpStatus: null, fails: ["timeout"] }),
  ]);
  const check = evaluate(siteSitemapUrls, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.match(check.signal.detail, /^1 of 6 sitemap URLs sampled do not answer 200: \/gone/);
  assert.deepEqual(check.signal.evidence, ["/gone: 404", "/hidden: 200, noindex"]);
  assert.match(check.fix!.how, /drop URLs that redirect or fail \(\/gone\)/);
});

Deno.test("discovery.site_sitemap_urls - left out when no sampled URL came from the sitemap", () => {
  const ctx = siteCtx([pageReport("/"), pageReport("/a", { inSitemap: false })]);
  assert.equal(siteSitemapUrls.check(ctx), null);
});

Deno.test("discovery.site_sitemap_urls - a site-wide robots.txt block is not a sitemap fault, and not called open to AI search crawlers", () => {
  const robots = "User-agent: *\nAllow: /\n\nUser-agent: OAI-SearchBot\nDisallow: /\n";
  const pages = ["/", "/a", "/b"].map((p) => pageReport(p, { blockedFor: ["OAI-SearchBot"] }));
  const s = evaluate(siteSitemapUrls, siteCtx(pages, {}, { robots }))!.signal;
  assert.equal(s.status, "pass");
  assert.equal(
    s.detail,
    "All 2 sitemap URLs sampled answer 200, are indexable and open to the AI search crawlers the home page lets in.",
  );
});
