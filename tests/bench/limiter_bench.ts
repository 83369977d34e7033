/**
 * Rate-limiter decisions, one at a time, against the floor of one atomic KV commit measured in
 * the same run. A decision is Store.admitScan: on shared KV, read the pools and the in-flight
 * mark, decide, and (when admitted) append to the windows, mark the domain and enqueue, in one
 * commit (a refusal is a read only); on a local KV with one writer, decide in memory and commit
 * the same writes with no read. tests/bench/limiter_rate.ts measures these on one pinned core,
 * with concurrent callers too, and checks exactness (load.ts runs it).
 */
import type { PoolSpec, ScanJob } from "../../lib/kit/storage/store.ts";
import { createStore } from "../../lib/app/server.ts";

const kv = await Deno.openKv(":memory:");
const store = createStore(kv, "bench");
// The only writer of its KV (`deno task start` on a local file): pools decided in memory.
const localKv = await Deno.openKv(":memory:");
const local = createStore(localKv, "bench", { exclusive: true });
const HOUR = 3600_000;
let n = 0;

function job(domain: string): ScanJob {
  return {
    kind: "scan",
    service: "bench",
    jobId: `j${n}`,
    target: { domain, url: `https://${domain}/`, host: domain },
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
  name: "admitScan, shared KV: admitted (2 pools, mark in flight, enqueue)",
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

Deno.bench({
  name: "admitScan, local KV (one writer): admitted, decided in memory",
  group: "limiter",
  async fn() {
    n++;
    const pools: PoolSpec[] = [
      { pool: "key", id: `k${n % 1000}`, limit: 1e9, windowMs: HOUR },
      { pool: "domain", id: `d${n}.example`, limit: 3, windowMs: HOUR },
    ];
    const a = await local.admitScan(job(`d${n}.example`), pools, Date.now(), 60_000);
    if (a.status !== "admitted") throw new Error(a.status);
  },
});

const full: PoolSpec[] = [{ pool: "ip", id: "full", limit: 8, windowMs: HOUR }];
for (let i = 0; i < 8; i++) {
  await store.admitScan(job(`f${i}.example`), [full[0]], Date.now(), 60_000);
}

Deno.bench({
  name: "admitScan, shared KV: refused (pool full)",
  group: "limiter",
  async fn() {
    n++;
    const a = await store.admitScan(job(`r${n}.example`), full, Date.now(), 60_000);
    if (a.status !== "limited") throw new Error(a.status);
  },
});
