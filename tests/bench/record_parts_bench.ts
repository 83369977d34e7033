/**
 * What storing records in parts costs the report read (lib/kit/storage/store.ts getScan, the GET report's
 * miss path): a record stored whole against records stored gzip-compressed in parts.
 *
 *   deno bench -A tests/bench/record_parts_bench.ts
 */
import { type ScanJob, type StoredScan } from "../../lib/kit/storage/store.ts";
import { readReport } from "../../lib/kit/storage/report_cache.ts";
import { createStore } from "../../lib/app/server.ts";

const T0 = Date.parse("2030-05-01T00:00:00Z");

function record(domain: string, items: number): StoredScan {
  return {
    record: {
      domain,
      status: "ok",
      scannedAt: new Date(T0).toISOString(),
      result: {
        items: Array.from({ length: items }, (_, i) => ({
          "@type": "Product",
          name: `Product number ${i}`,
          offers: { price: (i * 1.5).toFixed(2), priceCurrency: "EUR" },
          findings: [`Recommended: add "aggregateRating" to product ${i}`],
        })),
      },
    },
    failure: null,
    credential: "key",
    durationMs: 1,
    jobId: "j",
  };
}

const job = (domain: string): ScanJob => ({
  kind: "scan",
  service: "schema",
  jobId: "j",
  target: { domain, url: `https://${domain}/`, host: domain },
  credential: "key",
  enqueuedAt: T0,
});

const kv = await Deno.openKv(":memory:");
const store = createStore(kv, "schema");
const sizes: [string, number][] = [["whole-16k", 100], ["parts-69k", 420], ["parts-367k", 2200], [
  "parts-3.6m",
  21_000,
]];
for (const [name, items] of sizes) {
  await store.finishScan(job(`${name}.test`), record(`${name}.test`, items));
  const json = JSON.stringify((await store.getScan(`${name}.test`))!.record).length;
  console.log(`${name}: ${json} bytes of JSON`);
}

for (const [name] of sizes) {
  Deno.bench(`getScan ${name}`, { group: "read" }, async () => {
    await store.getScan(`${name}.test`);
  });
}
for (const [name] of sizes) {
  Deno.bench(`readReport ${name} (uncached: read + body)`, { group: "report" }, async () => {
    await readReport(store, `${name}.test`);
  });
}
for (const [name, items] of sizes) {
  const r = record(`w-${name}.test`, items);
  Deno.bench(`finishScan ${name}`, { group: "write" }, async () => {
    await store.finishScan(job(`w-${name}.test`), r);
  });
}
