/**
 * Rate-limiter decisions per second on one core (run pinned: `taskset -c 0`, as load.ts does),
 * sequential and with 16 concurrent callers, for each engine KV can hold the pools in:
 * - local: the only process writing a local KV decides in memory and writes through in one
 *   commit, shared by admissions that arrive together (lib/kit/limits/limiter_local.ts, lib/kit/limits/group_commit.ts;
 *   the default for `deno task start`), in memory and on a real file (each commit waits for disk);
 * - shared: KV shared by many processes (KV Connect, Deploy): read, decide, checked commit.
 * Each admission is a full Store.admitScan: decide two pools, mark the domain in flight, enqueue.
 * A refusal is a full pool. "exact" is checked in the same run: 200 concurrent callers into one
 * pool of 8 must admit exactly 8. Prints one JSON object.
 *
 *   taskset -c 0 deno run -A tests/bench/limiter_rate.ts
 */
import { type PoolSpec, type ScanJob } from "../../lib/kit/storage/store.ts";
import { createStore } from "../../lib/app/server.ts";

const HOUR = 3600_000;
const SECONDS = Number(Deno.args[0] ?? 2);
let n = 0;

function job(domain: string): ScanJob {
  return {
    kind: "scan",
    service: "bench",
    jobId: `j${++n}`,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "key",
    enqueuedAt: 0,
  };
}

async function rate(concurrency: number, fn: () => Promise<void>): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      await fn();
      done++;
    }
  }));
  return Math.round(done / SECONDS);
}

async function measure(exclusive: boolean, path = ":memory:") {
  const kv = await Deno.openKv(path);
  const store = createStore(kv, "bench", { exclusive });
  // Callers spread over 1,000 keys, each scan a new domain: the pools of a busy API.
  const admitted = async () => {
    const d = `d${n}.example`;
    const pools: PoolSpec[] = [
      { pool: "key", id: `k${n % 1000}`, limit: 1e9, windowMs: HOUR },
      { pool: "domain", id: d, limit: 3, windowMs: HOUR },
    ];
    const a = await store.admitScan(job(d), pools, Date.now(), 60_000);
    if (a.status !== "admitted") throw new Error(`expected admitted, got ${a.status}`);
  };
  const full: PoolSpec[] = [{ pool: "ip", id: "full", limit: 8, windowMs: HOUR }];
  for (let i = 0; i < 8; i++) await store.admitScan(job(`f${i}.example`), full, Date.now(), 60_000);
  const refused = async () => {
    const a = await store.admitScan(job(`r${n}.example`), full, Date.now(), 60_000);
    if (a.status !== "limited") throw new Error(`expected limited, got ${a.status}`);
  };
  const one: PoolSpec[] = [{ pool: "ip", id: "exact", limit: 8, windowMs: HOUR }];
  const burst = await Promise.all(
    Array.from(
      { length: 200 },
      () => store.admitScan(job(`x${n}.example`), one, Date.now(), 60_000),
    ),
  );
  const out = {
    admittedSequential: await rate(1, admitted),
    admittedConcurrent: await rate(16, admitted),
    refusedSequential: await rate(1, refused),
    refusedConcurrent: await rate(16, refused),
    exact: burst.filter((a) => a.status === "admitted").length === 8,
  };
  kv.close();
  return out;
}

const kv = await Deno.openKv(":memory:");
const floor = await rate(1, async () => {
  await kv.atomic().set(["floor", n++ % 1000], n).commit();
});
kv.close();
const dir = await Deno.makeTempDir();
try {
  console.log(JSON.stringify({
    seconds: SECONDS,
    commitFloorSequential: floor,
    local: await measure(true),
    localFile: await measure(true, `${dir}/kv.sqlite3`),
    shared: await measure(false),
  }));
} finally {
  await Deno.remove(dir, { recursive: true });
}
