/**
 * Records of any size the scans produce are stored and read back whole (lib/kit/storage/store.ts): over
 * ~60 KiB they are gzip-compressed and split into parts under one head, switched in one commit.
 */
import assert from "node:assert/strict";
import { MAX_RECORD_BYTES } from "../lib/kit/limits/record_budget.ts";
import { type ScanJob, type StoredScan } from "../lib/kit/storage/store.ts";
import { readReport, ReportCache } from "../lib/kit/storage/report_cache.ts";
import { createStore } from "../lib/app/server.ts";

const T0 = Date.parse("2030-05-01T00:00:00Z");

function job(domain: string, at = T0): ScanJob {
  return {
    kind: "scan",
    service: "schema",
    jobId: crypto.randomUUID(),
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "key",
    enqueuedAt: at,
  };
}

/** A record whose result holds `items` products (compressible, like real records). */
function productsRecord(domain: string, items: number, at = T0): StoredScan {
  return {
    record: {
      domain,
      status: "ok",
      scannedAt: new Date(at).toISOString(),
      result: {
        score: 77,
        items: Array.from({ length: items }, (_, i) => ({
          "@type": "Product",
          name: `Product number ${i} — “quoted” ünïcödé`,
          offers: { price: (i * 1.5).toFixed(2), priceCurrency: "EUR" },
          findings: [`Recommended: add "aggregateRating" to product ${i}`],
        })),
      },
    },
    failure: null,
    credential: "key",
    durationMs: 1234,
    jobId: "j",
  };
}

/** A record of `bytes` of random text: compression cannot shrink it, so it needs many parts. */
function randomRecord(domain: string, bytes: number, at = T0): StoredScan {
  const raw = new Uint8Array(bytes * 3 / 4);
  for (let i = 0; i < raw.length; i += 65536) crypto.getRandomValues(raw.subarray(i, i + 65536));
  let text = "";
  for (let i = 0; i < raw.length; i += 8192) {
    text += btoa(String.fromCharCode(...raw.subarray(i, i + 8192)));
  }
  return {
    ...productsRecord(domain, 0, at),
    record: { ...productsRecord(domain, 0, at).record, result: { blob: text } },
  };
}

async function parts(kv: Deno.Kv, domain: string): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: ["schema", "record_parts", domain] })) n++;
  return n;
}

Deno.test("[store records] an 82 KiB record (one that KV refused whole) is stored and read back whole", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "schema");
    const stored = productsRecord("shop.test", 500);
    const json = JSON.stringify(stored.record);
    assert.ok(json.length > 82 * 1024, `record is ${json.length} bytes`);
    await assert.rejects(
      () => kv.set(["whole"], stored),
      /too large/i,
      "Deno KV refuses it as one value",
    );
    const j = job("shop.test");
    await store.admitScan(j, [], T0, 60_000);
    assert.equal(await store.finishScan(j, { ...stored, jobId: j.jobId }), "stored");
    const back = await store.getScan("shop.test");
    assert.deepEqual(back, { ...stored, jobId: j.jobId });
    assert.equal(await store.getInflight("shop.test"), null);
    const head = (await kv.get<StoredScan>(["schema", "records", "shop.test"])).value!;
    assert.ok(head.parts && head.parts.count >= 1, "a head naming its parts");
    assert.equal(head.record.scannedAt, stored.record.scannedAt);
    // The report read serves the whole record, byte for byte what was stored.
    const report = await readReport(store, "shop.test", new ReportCache());
    assert.equal(new TextDecoder().decode(report!.body), json);
    // The recent-scans log still sees its score.
    assert.equal((await store.recentScans())[0].score, 77);
  } finally {
    kv.close();
  }
});

Deno.test("[store records] a record of several MB in more parts than one commit holds is stored whole; replaced, its parts stay while the history keeps it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "schema");
    // Random text barely compresses: 1 MB of it (just under a record's budget,
    // lib/kit/limits/record_budget.ts) is more parts than one commit holds.
    const big = randomRecord("big.test", 1_000_000);
    const j = job("big.test");
    assert.equal(await store.finishScan(j, big), "stored");
    assert.ok((await parts(kv, "big.test")) > 11, "more parts than one commit may hold");
    assert.deepEqual(await store.getScan("big.test"), big);

    // An older record arriving late is not the latest, but it is a scan: the history keeps it
    // (lib/kit/storage/history.ts), with its parts.
    const older = randomRecord("big.test", 1_000_000, T0 - 60_000);
    const before = await parts(kv, "big.test");
    const olderJob = job("big.test", T0 - 60_000);
    assert.equal(await store.finishScan(olderJob, older), "superseded");
    assert.ok(await parts(kv, "big.test") > before);
    assert.deepEqual((await store.history.get(olderJob.jobId))?.record, older.record);
    assert.deepEqual(await store.getScan("big.test"), big);

    // A newer small record replaces it; the big ones' parts stay while their scans are kept...
    const small = productsRecord("big.test", 2, T0 + 60_000);
    assert.equal(await store.finishScan(job("big.test", T0 + 60_000), small), "stored");
    assert.deepEqual(await store.getScan("big.test"), small);
    assert.deepEqual((await store.history.get(j.jobId))?.record, big.record);
    // ...and go with them: past the retention, only the latest scan is kept, with no parts.
    const purged = await store.history.purge({ before: T0 + 1, maxPerTarget: 1000 });
    assert.equal(purged.historyEntries, 2);
    assert.equal(await parts(kv, "big.test"), 0);
    assert.equal((await store.history.list("big.test")).length, 1);
  } finally {
    kv.close();
  }
});

Deno.test("[store records] the clean-up deletes parts nothing names once an hour old, and a purged record's parts once its scan is not kept", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "schema");
    await store.finishScan(job("kept.test"), productsRecord("kept.test", 300));
    await store.finishScan(job("old.test"), productsRecord("old.test", 300));
    // Parts of a write that never reached its head's commit (a crash), written at T0.
    await kv.set(
      ["schema", "record_parts", "kept.test", `${T0.toString(36)}-dead`, 0],
      new Uint8Array(10),
    );
    const keptParts = await parts(kv, "kept.test");
    const out = await store.purgeExpired(T0 + 2 * 3600_000, {
      recordsBefore: T0 + 1, // old.test and kept.test were both scanned at T0...
      inflightTtlMs: 60_000,
      windowMs: 3600_000,
    });
    assert.equal(out.records, 2);
    // The records are gone; their scans are still kept, with their parts (not the dead orphan).
    assert.equal(await parts(kv, "kept.test"), keptParts - 1);
    assert.ok(keptParts > 1);
    await store.history.purge({ before: T0 + 1, maxPerTarget: 1000 });
    assert.equal(await parts(kv, "old.test"), 0);
    assert.equal(await parts(kv, "kept.test"), 0);

    // ...and a record kept keeps its parts, while an hour-old orphan next to it goes.
    await store.finishScan(job("kept.test", T0 + 10), productsRecord("kept.test", 300, T0 + 10));
    const live = await parts(kv, "kept.test");
    await kv.set(
      ["schema", "record_parts", "kept.test", `${T0.toString(36)}-dead`, 0],
      new Uint8Array(10),
    );
    await store.purgeExpired(T0 + 2 * 3600_000, {
      recordsBefore: 0,
      inflightTtlMs: 60_000,
      windowMs: 3600_000,
    });
    assert.equal(await parts(kv, "kept.test"), live);
    assert.deepEqual(await store.getScan("kept.test"), productsRecord("kept.test", 300, T0 + 10));
  } finally {
    kv.close();
  }
});

Deno.test("[store records] a record over the budget (stored before it existed) is read as its summary, which says so", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "schema");
    const big = randomRecord("huge.test", 3 * 1024 * 1024);
    assert.equal(await store.finishScan(job("huge.test"), big), "stored");
    const read = (await store.getScanWithJson("huge.test"))!;
    const record = read.stored.record as typeof read.stored.record & {
      budget?: { bytes: number; limitBytes: number };
    };
    assert.equal(record.budget?.limitBytes, MAX_RECORD_BYTES);
    assert.ok(record.budget!.bytes > 3_000_000);
    assert.ok(read.recordJson!.byteLength <= MAX_RECORD_BYTES);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(read.recordJson!)), record);
  } finally {
    kv.close();
  }
});
