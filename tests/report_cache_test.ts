import assert from "node:assert/strict";
import { readReport, ReportCache } from "../lib/kit/storage/report_cache.ts";
import type { Store, StoredScan } from "../lib/kit/storage/store.ts";

function stored(domain: string, scannedAt: string): StoredScan {
  return {
    record: { domain, status: "ok", scannedAt, result: null, offSite: null } as never,
    failure: null,
    credential: "pipeline",
    durationMs: 1,
    jobId: "j",
  };
}

/** A store whose reads are counted and answered by hand. */
function manualStore() {
  const reads: ((s: StoredScan | null) => void)[] = [];
  const store = {
    getScan: () => new Promise<StoredScan | null>((resolve) => reads.push(resolve)),
  } as unknown as Store;
  return { store, reads };
}

Deno.test("[report_cache] misses that arrive together share one read and one serialisation", async () => {
  const cache = new ReportCache();
  const { store, reads } = manualStore();
  const all = Array.from({ length: 50 }, () => readReport(store, "a.example", cache));
  assert.equal(reads.length, 1);
  reads[0](stored("a.example", "2026-11-21T10:00:00Z"));
  const got = await Promise.all(all);
  assert.ok(got.every((r) => r === got[0]), "one entry, one body");
  assert.equal(cache.get("a.example"), got[0]);
});

Deno.test("[report_cache] a record stored during a read is not hidden behind the older one", async () => {
  const cache = new ReportCache();
  const { store, reads } = manualStore();
  const before = readReport(store, "b.example", cache);
  cache.delete("b.example"); // the worker stored a new record meanwhile
  const after = readReport(store, "b.example", cache);
  assert.equal(reads.length, 2, "a read after the delete does not join the older one");
  // The newer read answers first; the older one, overtaken by the delete, must not replace it.
  reads[1](stored("b.example", "2026-11-21T11:00:00Z"));
  assert.equal((await after)?.stored.record.scannedAt, "2026-11-21T11:00:00Z");
  reads[0](stored("b.example", "2026-11-21T10:00:00Z"));
  assert.equal((await before)?.stored.record.scannedAt, "2026-11-21T10:00:00Z");
  assert.equal(cache.get("b.example")?.stored.record.scannedAt, "2026-11-21T11:00:00Z");
});

Deno.test("[report_cache] a domain never scanned is not cached and is read again", async () => {
  const cache = new ReportCache();
  const { store, reads } = manualStore();
  const first = readReport(store, "c.example", cache);
  reads[0](null);
  assert.equal(await first, null);
  const second = readReport(store, "c.example", cache);
  assert.equal(reads.length, 2);
  reads[1](null);
  assert.equal(await second, null);
});
