/**
 * Rate-limiter decisions per second on one core (budget: at least 5,000, exact), against the floor
 * of one atomic KV commit measured in the same run. A decision is Store.admitScan: read the pools
 * and the in-flight mark, decide, and (when admitted) append to the windows, mark the domain and
 * enqueue, in one commit. A refusal is a read only.
 */
import { Store } from "../../lib/store.ts";
import type { PoolSpec, ScanJob } from "../../lib/store.ts";

const kv = await Deno.openKv(":memory:");
const store = new Store(kv, "bench");
const HOUR = 3600_000;
let n = 0;

function job(domain: string): ScanJob {
  return {
    kind: "scan",
    service: "bench",
    jobId: `j${n}`,
    domain,
    url: `https://${domain}/`,
    host: domain,
    credential: "key",
    enqueuedAt: 0,
  };
}

Deno.bench({
  name: "floor: one atomic KV commit",
  group: "limiter",
  baseline: true,
  async fn() {
    await kv.atomic().set(["floor", n++ % 1000], n).commit();
  },
});

Deno.bench({
  name: "admitScan: admitted (2 pools, mark in flight, enqueue)",
  group: "limiter",
  async fn() {
    n++;
    const pools: PoolSpec[] = [
      { pool: "key", id: `k${n}`, limit: 60, windowMs: HOUR },
      { pool: "domain", id: `d${n}.example`, limit: 3, windowMs: HOUR },
    ];
    const a = await store.admitScan(job(`d${n}.example`), pools, Date.now(), 60_000);
    if (a.status !== "admitted") throw new Error(a.status);
  },
});

const full: PoolSpec[] = [{ pool: "ip", id: "full", limit: 8, windowMs: HOUR }];
for (let i = 0; i < 8; i++) {
  await store.admitScan(job(`f${i}.example`), [full[0]], Date.now(), 60_000);
}

Deno.bench({
  name: "admitScan: refused (pool full)",
  group: "limiter",
  async fn() {
    n++;
    const a = await store.admitScan(job(`r${n}.example`), full, Date.now(), 60_000);
    if (a.status !== "limited") throw new Error(a.status);
  },
});
