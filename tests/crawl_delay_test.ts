/**
 * Numeric directives of robots.txt are finite and clamped (issue 26): a Crawl-delay written as
 * `1e400` or `Infinity` is an endless delay, not "no delay"; NaN, zero and negative values are
 * no Crawl-delay at all. The site audit (lib/engines/visibility/audit/audit.ts) reads only the home page
 * when the delay is over its bound, so an endless delay must come out as a large finite number.
 */
import assert from "node:assert/strict";
import { crawlDelayFor, MAX_CRAWL_DELAY_SEC } from "../lib/engines/visibility/audit/polite.ts";

const UA = "AIVisibilityBot/0.1";
const delay = (value: string) => crawlDelayFor(`User-agent: *\nCrawl-delay: ${value}\n`, UA);

Deno.test("[robots] Crawl-delay: huge and infinite values are the longest delay, finite", () => {
  for (const value of ["1e400", "Infinity", "+Infinity", "1e30", "999999999"]) {
    const seconds = delay(value);
    assert.equal(seconds, MAX_CRAWL_DELAY_SEC, value);
    assert.ok(Number.isFinite(seconds!), value);
    // Over the audit's default bound (5 s): only the home page is read.
    assert.ok(seconds! * 1000 > 5_000, value);
  }
  assert.equal(delay("86399.5"), 86399.5);
  assert.equal(delay("2.5"), 2.5);
});

Deno.test("[robots] Crawl-delay: NaN, zero, negative and words are no delay", () => {
  for (const value of ["NaN", "nan", "0", "-1", "-Infinity", "-1e400", "soon", ""]) {
    assert.equal(delay(value), null, JSON.stringify(value));
  }
  // The largest of several, clamped; an invalid one beside a valid one is skipped.
  assert.equal(
    crawlDelayFor(`User-agent: *\nCrawl-delay: NaN\nCrawl-delay: 3\nCrawl-delay: -9\n`, UA),
    3,
  );
  assert.equal(
    crawlDelayFor(`User-agent: *\nCrawl-delay: 1e400\nCrawl-delay: 3\n`, UA),
    MAX_CRAWL_DELAY_SEC,
  );
});
