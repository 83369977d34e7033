/**
 * Scan admissions decided in memory by the only process that writes the KV (lib/kit/limits/limiter_local.ts
 * through Store.admitScan with `exclusive`): exact under concurrency, durable across a restart,
 * and a domain already in flight is joined without counting.
 */
import assert from "node:assert/strict";
import { type PoolSpec, type ScanJob } from "../lib/kit/storage/store.ts";
import { createStore } from "../lib/app/server.ts";

const HOUR = 3600_000;
let n = 0;

function job(domain: string): ScanJob {
  n++;
  return {
    kind: "scan",
    service: "visibility",
    jobId: `job-${n}`,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "challenge",
    enqueuedAt: 0,
  };
}

const ip = (id: string, limit = 8): PoolSpec => ({ pool: "ip", id, limit, windowMs: HOUR });
const domainPool = (d: string): PoolSpec => ({ pool: "domain", id: d, limit: 3, windowMs: HOUR });

async function withKv(fn: (kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("[limiter_local] 200 concurrent admissions into a pool of 8 admit exactly 8, and KV holds the 8", async () => {
  await withKv(async (kv) => {
    const store = createStore(kv, "visibility", { exclusive: true });
    const now = Date.now();
    const out = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          store.admitScan(
            job(`c${i}.example`),
            [ip("203.0.113.9"), domainPool(`c${i}.example`)],
            now,
            60_000,
          ),
      ),
    );
    assert.equal(out.filter((a) => a.status === "admitted").length, 8);
    assert.equal(out.filter((a) => a.status === "limited").length, 192);
    const stored = (await kv.get<number[]>(["visibility", "limits", "ip", "203.0.113.9"])).value;
    assert.equal(stored?.length, 8);
    assert.deepEqual(await store.poolUsage(ip("203.0.113.9"), now), { used: 8, resetMs: HOUR });
  });
});

Deno.test("[limiter_local] a restarted process continues from the pools in KV", async () => {
  await withKv(async (kv) => {
    const now = Date.now();
    const first = createStore(kv, "visibility", { exclusive: true });
    for (let i = 0; i < 8; i++) {
      const a = await first.admitScan(job(`r${i}.example`), [ip("198.51.100.1")], now + i, 60_000);
      assert.equal(a.status, "admitted");
    }
    const restarted = createStore(kv, "visibility", { exclusive: true });
    const ninth = await restarted.admitScan(
      job("r9.example"),
      [ip("198.51.100.1")],
      now + 10,
      60_000,
    );
    assert.equal(ninth.status, "limited");
    if (ninth.status === "limited") assert.equal(ninth.retryAfterMs, HOUR - 10);
    // An hour after the first admission, its slot is free again.
    const later = await restarted.admitScan(
      job("r10.example"),
      [ip("198.51.100.1")],
      now + HOUR,
      60_000,
    );
    assert.equal(later.status, "admitted");
  });
});

Deno.test("[limiter_local] a domain in flight is joined and counts nothing, even when its pools are full", async () => {
  await withKv(async (kv) => {
    const store = createStore(kv, "visibility", { exclusive: true });
    const now = Date.now();
    const pools = () => [ip("192.0.2.7"), domainPool("busy.example")];
    assert.equal(
      (await store.admitScan(job("busy.example"), pools(), now, 60_000)).status,
      "admitted",
    );
    // Ten concurrent requests for the same domain while it is queued: all join, none is counted.
    const joins = await Promise.all(
      Array.from({ length: 10 }, () => store.admitScan(job("busy.example"), pools(), now, 60_000)),
    );
    assert.ok(joins.every((a) => a.status === "inflight"), JSON.stringify(joins));
    assert.equal((await store.poolUsage(ip("192.0.2.7"), now)).used, 1);
    assert.equal((await store.poolUsage(domainPool("busy.example"), now)).used, 1);
    // Fill the IP pool with other domains; the domain in flight is still joined, not refused.
    for (let i = 0; i < 7; i++) {
      await store.admitScan(job(`f${i}.example`), [ip("192.0.2.7")], now, 60_000);
    }
    assert.equal(
      (await store.admitScan(job("busy.example"), pools(), now, 60_000)).status,
      "inflight",
    );
    assert.equal(
      (await store.admitScan(job("new.example"), [ip("192.0.2.7")], now, 60_000)).status,
      "limited",
    );
  });
});

Deno.test("[limiter_local] concurrent first requests for one domain admit one scan and count it once", async () => {
  await withKv(async (kv) => {
    const store = createStore(kv, "visibility", { exclusive: true });
    const now = Date.now();
    const out = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          store.admitScan(
            job("same.example"),
            [ip(`10.0.0.${i}`), domainPool("same.example")],
            now,
            60_000,
          ),
      ),
    );
    assert.equal(out.filter((a) => a.status === "admitted").length, 1);
    assert.equal(out.filter((a) => a.status === "inflight").length, 49);
    assert.equal((await store.poolUsage(domainPool("same.example"), now)).used, 1);
    const ipsUsed = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.poolUsage(ip(`10.0.0.${i}`), now)),
    );
    assert.equal(
      ipsUsed.reduce((s, u) => s + u.used, 0),
      1,
      "only the admitted caller's IP counts",
    );
  });
});

for (const exclusive of [true, false]) {
  Deno.test(`[limiter_local] exact when callers' clocks disagree by milliseconds (${exclusive ? "local" : "shared KV"})`, async () => {
    await withKv(async (kv) => {
      const store = createStore(kv, "visibility", { exclusive });
      const t0 = Date.now();
      // Callers that decide later read the clock earlier: the pool holds times "after" their now.
      const out = await Promise.all(
        Array.from(
          { length: 200 },
          (_, i) =>
            store.admitScan(job(`k${i}.example`), [ip("203.0.113.77")], t0 + 200 - i, 60_000),
        ),
      );
      assert.equal(out.filter((a) => a.status === "admitted").length, 8);
    });
  });
}
