/**
 * The record budget (lib/kit/limits/record_budget.ts): a record over MAX_RECORD_BYTES is summarised
 * where it is built and says so; one that fits is left as it is.
 */
import assert from "node:assert/strict";
import {
  boundOutcome,
  jsonBytes,
  MAX_RECORD_BYTES,
  withinBudget,
} from "../lib/kit/limits/record_budget.ts";
import { SchemaScanRecordSchema } from "../lib/engines/structured/record.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { startCrawlerSites } from "./fixtures/crawler_sites.ts";

function record(result: unknown) {
  return { domain: "big.test", status: "ok", scannedAt: "2026-11-26T10:00:00.000Z", result };
}

Deno.test("[budget] a record that fits is the same object", () => {
  const r = record({ a: "x".repeat(1000), list: [1, 2, 3] });
  assert.equal(withinBudget(r), r);
  const outcome = { record: r, failure: null };
  assert.equal(boundOutcome(outcome), outcome);
});

Deno.test("[budget] a large record is summarised under the budget and says so", () => {
  const big = record({
    description: "d".repeat(3_000_000),
    items: Array.from({ length: 50_000 }, (_, i) => ({ i, name: `item ${i}`.repeat(5) })),
    summary: { items: 50_000 },
  });
  const bytes = jsonBytes(big);
  assert.ok(bytes > 4 * MAX_RECORD_BYTES);
  const small = withinBudget(big);
  assert.ok(jsonBytes(small) <= MAX_RECORD_BYTES, `${jsonBytes(small)}`);
  assert.equal(small.status, "ok");
  assert.equal(small.budget?.bytes, bytes);
  assert.equal(small.budget?.limitBytes, MAX_RECORD_BYTES);
  assert.match(small.budget!.note, /summarised/);
  const result = small.result as { summary: { items: number }; items: unknown[] };
  assert.equal(result.summary.items, 50_000, "counts stay the page's");
  assert.ok(result.items.length < 50_000);
});

Deno.test("[budget] a record no summary fits is a failed record that says why", () => {
  // 4 levels of 12 keys (20,736 short leaves, ~300 KB): objects are not cut, so no summary fits
  // in 4 KiB.
  let v: unknown = "x";
  for (let i = 0; i < 4; i++) {
    v = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`k${k}`, v]));
  }
  const r = withinBudget(record(v), 4 * 1024);
  assert.equal(r.status, "failed");
  assert.equal(r.result, null);
  assert.match(r.budget!.note, /too large/);
});

Deno.test("[budget] a schema record over the budget still matches its schema", () => {
  const big = "Lorem ipsum ".repeat(150_000);
  const html = `<html><head><script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", "@type": "Article", articleBody: big })
  }</script></head><body></body></html>`;
  const result = analysePage(html, {
    requestedUrl: "https://big.test/",
    finalUrl: "https://big.test/",
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  }, "big.test");
  const r = withinBudget({ ...record(result), url: "https://big.test/" });
  assert.ok(r.budget, "summarised");
  SchemaScanRecordSchema.parse(r);
});

Deno.test({
  name:
    "[budget] a visibility record over the budget (crawler matrix and edge answers included) still matches its schema",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const sites = startCrawlerSites();
    try {
      const config = loadConfig({
        SCAN_RESOLVE: sites.scanResolve,
        // Off-site lookups go nowhere (a loopback address the guard refuses).
        WIKIDATA_API_URL: "http://127.0.0.1:9/w/api.php",
        WIKIPEDIA_API_URL: "http://127.0.0.1:9/w/api.php",
        COMMONCRAWL_INDEX_URL: "http://127.0.0.1:9/collinfo.json",
        SCAN_TIMEOUT_MS: "8000",
        REQUEST_TIMEOUT_MS: "3000",
        OFFSITE_TIMEOUT_MS: "500",
      });
      const now = () => new Date("2026-11-26T12:00:00Z");
      const { record: scanned } = await scanSite("edge-mixed.test", { config, now, pages: 1 });
      assert.equal(scanned.status, "ok");
      // What a hostile page could make of it: every signal's evidence a long list of long texts.
      const big = structuredClone(scanned);
      for (const pillar of big.result!.pillars) {
        for (const signal of pillar.signals) {
          signal.evidence = Array.from({ length: 400 }, (_, i) => `${i} ${"e".repeat(400)}`);
        }
      }
      assert.ok(jsonBytes(big) > 4 * MAX_RECORD_BYTES, `${jsonBytes(big)} bytes`);
      const small = withinBudget(big);
      assert.ok(small.budget, "summarised");
      assert.ok(jsonBytes(small) <= MAX_RECORD_BYTES, `${jsonBytes(small)} bytes`);
      assert.equal(small.status, "ok");
      ScanRecordSchema.parse(small);
      const edge = (r: typeof scanned) =>
        r.result!.pillars.flatMap((p) => p.signals).find((x) => x.id === "access.edge");
      assert.ok(edge(scanned)?.crawlers?.length, "the scan has a crawler matrix");
      assert.deepEqual(edge(small)?.crawlers, edge(scanned)?.crawlers, "the matrix is kept");
    } finally {
      await sites.close();
    }
  },
});
