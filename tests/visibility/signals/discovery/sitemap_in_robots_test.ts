/** discovery.sitemap_in_robots: a Sitemap line in robots.txt. */
import assert from "node:assert/strict";
import { sitemapInRobots } from "../../../../lib/engines/visibility/signals/discovery/sitemap_in_robots.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("discovery.sitemap_in_robots - a Sitemap line passes; none warns with the line to add", () => {
  const named = pageCtx({
    robots: "User-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml\n",
  });
  assert.equal(reported(sitemapInRobots, named).status, "pass");
  const none = pageCtx({ robots: "User-agent: *\nAllow: /\n" });
  assert.equal(reported(sitemapInRobots, none).status, "warn");
  assert.match(fixOf(sitemapInRobots, none)!.how, /Sitemap: https:\/\/shop\.example\/sitemap\.xml/);
});
