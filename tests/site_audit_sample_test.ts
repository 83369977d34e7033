/**
 * The site audit's pure parts (issue 19): choosing the sample (templates, filters, About and
 * Contact, bounded sitemaps), reading Crawl-delay, and the fetcher that keeps 2 requests in flight
 * per site. The crawl itself, against fixture sites, is tests/site_audit_test.ts.
 */
import assert from "node:assert/strict";
import {
  collectCandidates,
  pathShape,
  pickSample,
} from "../lib/engines/visibility/audit/sample.ts";
import { crawlDelayFor, politeFetcher } from "../lib/engines/visibility/audit/polite.ts";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import type { FetchResult, GuardedFetcher } from "../lib/kit/net/types.ts";

Deno.test("audit sample - spread across templates, About and Contact first, private and tracking URLs left out", () => {
  const home = "https://s.test/";
  const sitemap = `<urlset>${
    Array.from({ length: 12 }, (_, i) =>
      `<url><loc>https://s.test/blog/post-${i}</loc><lastmod>2026-01-${
        String(i + 1).padStart(2, "0")
      }</lastmod></url>`).join("")
  }<url><loc>https://s.test/products/mug</loc><lastmod>2025-01-01</lastmod></url>
  <url><loc>https://s.test/docs/setup</loc></url>
  <url><loc>https://other.test/blog/x</loc></url>
  <url><loc>https://s.test/account/orders</loc></url>
  <url><loc>https://s.test/guide.pdf</loc></url></urlset>`;
  const facts = extractPageFacts(
    `<html><body><nav><a href="/about-us">About us</a><a href="/contact">Contact</a>
    <a href="/login">Log in</a><a href="/search?q=x">Search</a><a href="/pricing?utm_source=nav">P</a>
    <a href="/pricing">Pricing</a></nav></body></html>`,
    home,
  );
  const { candidates, total } = collectCandidates([sitemap], facts, home);
  assert.equal(total, candidates.length);
  const urls = candidates.map((c) => c.url);
  for (const bad of ["login", "search", "account", "utm_source", "guide.pdf", "other.test"]) {
    assert.ok(!urls.some((u) => u.includes(bad)), `${bad} must not be a candidate`);
  }
  const picked = pickSample(candidates, 6).map((c) => new URL(c.url).pathname);
  assert.deepEqual(picked.slice(0, 2), ["/about-us", "/contact"]);
  // The newest post first, then one of each other template before a second post.
  assert.equal(picked[2], "/blog/post-11");
  assert.deepEqual(
    new Set(picked.slice(2).map((p) => pathShape(`https://s.test${p}`))),
    new Set(["/blog/*", "/products/*", "/docs/*", "/*"]),
  );
});

Deno.test("audit sample - a huge sitemap keeps only the newest entries of each template", () => {
  const home = "https://big.test/";
  const body = `<urlset>${
    Array.from({ length: 20_000 }, (_, i) =>
      `<url><loc>https://big.test/${i % 2 ? "news" : "shop"}/item-${i}</loc><lastmod>${
        new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()
      }</lastmod></url>`).join("")
  }</urlset>`;
  const facts = extractPageFacts("<html><body></body></html>", home);
  const { candidates, total } = collectCandidates([body], facts, home);
  assert.equal(total, 20_000);
  assert.equal(candidates.length, 100, "50 per template");
  assert.deepEqual(
    candidates.slice(0, 2).map((c) => new URL(c.url).pathname),
    ["/news/item-19999", "/shop/item-19998"],
  );
});

Deno.test("audit politeness - Crawl-delay for our token or *, and a fetcher that keeps 2 in flight per site", async () => {
  assert.equal(crawlDelayFor("User-agent: *\nCrawl-delay: 3\n", "AIVisibilityBot/0.1"), 3);
  assert.equal(
    crawlDelayFor(
      "User-agent: AIVisibilityBot\nCrawl-delay: 1\n\nUser-agent: *\nCrawl-delay: 9\n",
      "AIVisibilityBot",
    ),
    1,
  );
  assert.equal(crawlDelayFor("User-agent: GPTBot\nCrawl-delay: 9\n", "AIVisibilityBot"), null);
  assert.equal(crawlDelayFor("User-agent: *\nCrawl-delay: soon\n", "AIVisibilityBot"), null);

  let active = 0, peak = 0, other = 0, otherPeak = 0;
  const inner: GuardedFetcher = {
    async fetch(url) {
      const site = new URL(url).hostname.endsWith("site.test");
      if (site) peak = Math.max(peak, ++active);
      else otherPeak = Math.max(otherPeak, ++other);
      await new Promise((r) => setTimeout(r, 5));
      if (site) active--;
      else other--;
      return { url, finalUrl: url, status: 200 } as FetchResult;
    },
    close: () => Promise.resolve(),
  };
  const polite = politeFetcher(inner, "site.test");
  await Promise.all([
    ...Array.from({ length: 8 }, (_, i) => polite.fetch(`https://site.test/${i}`)),
    ...Array.from({ length: 2 }, (_, i) => polite.fetch(`https://www.site.test/w${i}`)),
    ...Array.from({ length: 4 }, (_, i) => polite.fetch(`https://wikidata.test/${i}`)),
  ]);
  assert.equal(peak, 2, "the site (apex and www.) sees at most 2 at once");
  assert.equal(polite.maxInFlight, 2);
  assert.equal(otherPeak, 4, "other hosts (off-site lookups) are not held back");
  // An aborted waiter leaves the queue without being sent.
  const ac = new AbortController();
  polite.setDelay(50);
  const first = polite.fetch("https://site.test/a");
  const waiting = polite.fetch("https://site.test/b", { signal: ac.signal });
  ac.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  await first;
});
