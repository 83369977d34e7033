import assert from "node:assert/strict";
import { analyseRobots } from "../lib/engines/visibility/robots.ts";
import type { FetchOutcome } from "../lib/engines/visibility/snapshot_types.ts";
import { FetchError } from "../lib/kit/net/types.ts";

const PAGE = "https://shop.example/";

function robots(body: string, status = 200, contentType = "text/plain"): FetchOutcome {
  return {
    ok: true,
    result: {
      url: `${PAGE}robots.txt`,
      finalUrl: `${PAGE}robots.txt`,
      status,
      headers: { "content-type": contentType },
      body,
      bytes: body.length,
      truncated: false,
      redirects: [],
      ttfbMs: 1,
      totalMs: 1,
      remoteAddress: "127.0.0.1",
    },
  };
}

const allowed = (a: ReturnType<typeof analyseRobots>, token: string) =>
  a.crawlers.find((c) => c.token === token)!.allowed;

Deno.test("[robots] product tokens match exactly, not by substring", () => {
  const a = analyseRobots(
    robots("User-agent: Googlebot-News\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    PAGE,
  );
  assert.equal(allowed(a, "Googlebot"), true, "Googlebot is not Googlebot-News");
  const b = analyseRobots(robots("User-agent: GPTBot\nDisallow: /\n"), PAGE);
  assert.equal(allowed(b, "GPTBot"), false);
  assert.equal(allowed(b, "OAI-SearchBot"), true);
});

Deno.test("[robots] duplicate groups for one crawler are merged (RFC 9309 2.2.1)", () => {
  const a = analyseRobots(
    robots(
      "User-agent: PerplexityBot\nAllow: /blog\n\nUser-agent: *\nAllow: /\n\nUser-agent: perplexitybot\nDisallow: /\n",
    ),
    PAGE,
  );
  const p = a.crawlers.find((c) => c.token === "PerplexityBot")!;
  assert.equal(p.allowed, false);
  assert.equal(p.group, "specific");
  assert.equal(p.line, 8);
  assert.equal(p.lineText, "Disallow: /");
});

Deno.test("[robots] a specific group overrides the * group", () => {
  const a = analyseRobots(
    robots("User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nAllow: /\n"),
    PAGE,
  );
  assert.equal(allowed(a, "OAI-SearchBot"), true);
  assert.equal(allowed(a, "PerplexityBot"), false);
  assert.equal(a.wildcardBlocksHome, true);
});

Deno.test("[robots] the longest match wins and Allow wins a tie", () => {
  const a = analyseRobots(robots("User-agent: *\nDisallow: /\nAllow: /$\n"), PAGE);
  assert.equal(allowed(a, "Bingbot"), true, "Allow: /$ is longer than Disallow: /");
  const b = analyseRobots(robots("User-agent: *\nDisallow: /\nAllow: /\n"), PAGE);
  assert.equal(allowed(b, "Bingbot"), true, "equal length: Allow wins");
});

Deno.test("[robots] 4xx means allow all, 5xx means complete disallow (RFC 9309 2.3.1)", () => {
  const missing = analyseRobots(robots("Not found", 404, "text/html"), PAGE);
  assert.equal(missing.state, "missing");
  assert.ok(missing.crawlers.every((c) => c.allowed));
  const err = analyseRobots(robots("oops", 503), PAGE);
  assert.equal(err.state, "server_error");
  assert.ok(err.crawlers.every((c) => !c.allowed));
  assert.equal(err.wildcardBlocksHome, true);
});

Deno.test("[robots] a network failure is unknown, not a verdict", () => {
  const a = analyseRobots({
    ok: false,
    error: new FetchError("timeout", "timed out", `${PAGE}robots.txt`),
  }, PAGE);
  assert.equal(a.state, "unreachable");
});

Deno.test("[robots] an HTML soft-404 is invalid and holds no rules", () => {
  const a = analyseRobots(
    robots("<!doctype html><html><body>Page not found</body></html>", 200, "text/html"),
    PAGE,
  );
  assert.equal(a.state, "invalid");
  assert.ok(a.crawlers.every((c) => c.allowed));
});

Deno.test("[robots] sitemaps are collected and comments ignored", () => {
  const a = analyseRobots(
    robots(
      "# hello\nUser-agent: * # everyone\nDisallow: /admin # private\nSitemap: https://shop.example/sitemap.xml\n",
    ),
    PAGE,
  );
  assert.deepEqual(a.sitemaps, ["https://shop.example/sitemap.xml"]);
  assert.equal(a.wildcardBlocksHome, false);
  assert.equal(a.unknownLines, 0);
});

Deno.test("[robots] a page path starting with // is matched as a path, not a host", () => {
  const a = analyseRobots(
    robots("User-agent: *\nDisallow: /\nAllow: /*.html$\n"),
    "https://shop.example//deep/page.html",
  );
  assert.equal(allowed(a, "Bingbot"), true);
  const b = analyseRobots(
    robots("User-agent: *\nDisallow: //private\n"),
    "https://shop.example//private/x",
  );
  assert.equal(allowed(b, "Bingbot"), false);
});

Deno.test("[robots] the query string takes part in matching", () => {
  const text = "User-agent: *\nDisallow: /*?sort=\nAllow: /*.pdf$\nDisallow: /\n";
  assert.equal(
    allowed(analyseRobots(robots(text), "https://shop.example/list?sort=price"), "GPTBot"),
    false,
  );
  assert.equal(allowed(analyseRobots(robots(text), "https://shop.example/a.pdf"), "GPTBot"), true);
  assert.equal(
    allowed(analyseRobots(robots(text), "https://shop.example/a.pdf?download=1"), "GPTBot"),
    false,
    "$ anchors at the end of path and query",
  );
});

Deno.test("[robots] Crawl-delay and Sitemap lines between User-agent lines do not split a group", () => {
  const a = analyseRobots(
    robots(
      "User-agent: GPTBot\nCrawl-delay: 5\nUser-agent: PerplexityBot\nSitemap: https://shop.example/s.xml\nUser-agent: CCBot\nDisallow: /\n",
    ),
    PAGE,
  );
  for (const t of ["GPTBot", "PerplexityBot", "CCBot"]) assert.equal(allowed(a, t), false, t);
  assert.equal(allowed(a, "Bingbot"), true);
  assert.deepEqual(a.sitemaps, ["https://shop.example/s.xml"]);
});

Deno.test("[robots] a User-agent value with a space or version matches on its product token", () => {
  const a = analyseRobots(
    robots(
      "User-agent: ClaudeBot extra words\nDisallow: /\n\nUser-agent: CCBot/2.0\nDisallow: /\n",
    ),
    PAGE,
  );
  assert.equal(allowed(a, "ClaudeBot"), false);
  assert.equal(allowed(a, "CCBot"), false);
  assert.equal(allowed(a, "GPTBot"), true);
});

Deno.test("[robots] Applebot follows the Googlebot group when it has none of its own", () => {
  const a = analyseRobots(
    robots("User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n"),
    PAGE,
  );
  const apple = a.crawlers.find((c) => c.token === "Applebot")!;
  assert.equal(apple.allowed, true);
  assert.equal(apple.group, "specific");
  const own = analyseRobots(
    robots("User-agent: Googlebot\nAllow: /\n\nUser-agent: Applebot\nDisallow: /\n"),
    PAGE,
  );
  assert.equal(allowed(own, "Applebot"), false);
});

Deno.test("[robots] no input throws; bad Sitemap entries do not spoil good ones", () => {
  const hostile = [
    "\uFEFFUser-agent: *\nDisallow: /%zz\nAllow: /\u0000\n",
    "User-agent: *\n" + "Disallow: /" + "*a".repeat(5000) + "$\n",
    "Sitemap: http://[bad\nSitemap: https://shop.example/good.xml\nSitemap: javascript:alert(1)\n",
    ":::\n\n:\nUser-agent:\nDisallow:\n",
  ];
  for (const text of hostile) {
    for (const page of [PAGE, "https://shop.example//x?y=%zz", "https://shop.example/\u30c4"]) {
      analyseRobots(robots(text), page);
    }
  }
  const s = analyseRobots(robots(hostile[2]), PAGE);
  assert.deepEqual(s.sitemaps, ["https://shop.example/good.xml"]);
});
