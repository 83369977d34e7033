/**
 * The worker's reliability rules (lib/engines/scan/worker.ts): poison jobs end as failed records after a
 * bounded number of starts and never take the jobs behind them along; a record that cannot be
 * stored still ends the job; callers are served round-robin; a held job keeps its domain in
 * flight. In-process, over an in-memory KV and its queue, with stand-in scan runners.
 */
import assert from "node:assert/strict";
import { visibilityService } from "../lib/features/visibility/service.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { ScanIsolationError, type ScanRunner, TOO_COMPLEX } from "../lib/kit/isolate/runner.ts";
import type { BaseRecord, RunOutcome, ServiceDef } from "../lib/service.ts";
import { type ScanJob, Store, type StoredScan } from "../lib/kit/storage/store.ts";
import { DEFAULT_MAX_ATTEMPTS, FairQueue, startWorker } from "../lib/engines/scan/worker.ts";
import { KvPolledQueue, roundRobin } from "../lib/kit/storage/job_queue.ts";
import { createStore, storeOptions } from "../lib/app/server.ts";

const config = loadConfig({});
const T0 = Date.parse("2030-05-01T00:00:00Z");

function okOutcome(domain: string, now: () => Date): RunOutcome {
  return {
    record: { domain, status: "ok", scannedAt: now().toISOString(), result: null, offSite: null },
    failure: null,
  } as RunOutcome;
}

/** A visibility service that must not be called (scans go through the runner). */
const unusedService: ServiceDef = {
  ...visibilityService as ServiceDef,
  title: "unused",
  run: () => Promise.reject(new Error("scans must go through the runner")),
};

/** A runner whose behaviour is chosen per domain; it records every start. */
function fakeRunner(
  behave: (domain: string) => Promise<void> | void,
): ScanRunner & { starts: string[] } {
  const starts: string[] = [];
  return {
    kind: "inline",
    starts,
    warmed: () => Promise.resolve(),
    async run(_service, target, _config, now) {
      starts.push(target.domain);
      await behave(target.domain);
      return okOutcome(target.domain, now);
    },
    runJob: () => Promise.reject(new Error("no jobs here")),
    runStream: () => Promise.reject(new Error("no jobs here")),
    close: () => Promise.resolve(),
  };
}

function jobFor(domain: string, caller?: string): ScanJob {
  return {
    kind: "scan",
    service: "visibility",
    jobId: crypto.randomUUID(),
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "key",
    enqueuedAt: T0,
    ...(caller ? { caller } : {}),
  };
}

async function setup(runner: ScanRunner, options: { concurrency?: number; store?: Store } = {}) {
  const kv = await Deno.openKv(":memory:");
  const store = options.store ?? createStore(kv, "visibility");
  const clock = { now: T0 };
  const logs: Record<string, unknown>[] = [];
  const worker = startWorker({
    kv: store.kv,
    stores: { visibility: store },
    services: { visibility: unusedService },
    config,
    concurrency: options.concurrency ?? 1,
    now: () => new Date(clock.now),
    log: (e) => logs.push(e),
    runner,
    heartbeatMs: 100,
  });
  const admit = async (job: ScanJob) => {
    const a = await store.admitScan(job, [], clock.now, 60_000);
    assert.equal(a.status, "admitted");
    return job;
  };
  const stored = async (domain: string, timeoutMs = 10_000): Promise<StoredScan> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const s = await store.getScan(domain);
      if (s && !(await store.getInflight(domain))) return s;
      if (Date.now() > until) throw new Error(`${domain} was never stored`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    kv: store.kv,
    clock,
    store,
    logs,
    admit,
    stored,
    close: async () => {
      await worker.idle();
      await worker.stop();
      store.kv.close();
    },
  };
}

Deno.test("[worker reliability] a poison job is tried a bounded number of times, stored failed, and the job behind it is stored", async () => {
  const runner = fakeRunner((domain) => {
    if (domain === "poison.test") {
      throw new ScanIsolationError(
        `${TOO_COMPLEX} (it needed more than 32 MB of memory)`,
        "memory",
      );
    }
  });
  const env = await setup(runner, { concurrency: 1 });
  try {
    const poison = await env.admit(jobFor("poison.test"));
    await env.admit(jobFor("bystander.test"));
    const failed = await env.stored("poison.test");
    assert.equal(failed.record.status, "failed");
    assert.equal(failed.record.result, null);
    assert.equal(failed.failure, `${TOO_COMPLEX} (it needed more than 32 MB of memory)`);
    const ok = await env.stored("bystander.test");
    assert.equal(ok.record.status, "ok");
    assert.equal(runner.starts.filter((d) => d === "poison.test").length, DEFAULT_MAX_ATTEMPTS);
    assert.equal(
      (await env.kv.get(["visibility", "attempts", poison.jobId])).value,
      null,
      "the start count goes with the stored record",
    );
    // Nothing comes back: the queue is empty and no more starts happen.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(runner.starts.length, DEFAULT_MAX_ATTEMPTS + 1);
  } finally {
    await env.close();
  }
});

Deno.test("[worker reliability] a job that already took its process down too often is stored failed without running", async () => {
  const runner = fakeRunner(() => {});
  const env = await setup(runner);
  try {
    // What two starts that each killed the process leave behind: their count.
    const job = jobFor("killer.test");
    for (let i = 0; i < DEFAULT_MAX_ATTEMPTS; i++) await env.store.countAttempt(job);
    await env.admit(job);
    const s = await env.stored("killer.test");
    assert.equal(s.record.status, "failed");
    assert.ok(s.failure?.startsWith(TOO_COMPLEX), s.failure ?? "");
    assert.deepEqual(runner.starts, [], "not run a third time");
  } finally {
    await env.close();
  }
});

Deno.test("[worker reliability] a record the store refuses ends as a small failed record; nothing stays in flight", async () => {
  class RefusingStore extends Store {
    refused = 0;
    override finishScan(job: ScanJob, stored: StoredScan) {
      if (stored.record.status === "ok") {
        this.refused++;
        return Promise.reject(new TypeError("Value too large (max 65536 bytes)"));
      }
      return super.finishScan(job, stored);
    }
  }
  const kv = await Deno.openKv(":memory:");
  const store = new RefusingStore(kv, "visibility", storeOptions(kv, "visibility"));
  const env = await setup(fakeRunner(() => {}), { store });
  try {
    await env.admit(jobFor("huge.test"));
    const s = await env.stored("huge.test");
    assert.equal(s.record.status, "failed");
    assert.equal(
      s.failure,
      "the report could not be stored: Value too large (max 65536 bytes)",
    );
    assert.equal(store.refused, 1);
    assert.equal(await env.store.getInflight("huge.test"), null);
  } finally {
    await env.close();
  }
});

Deno.test("[worker reliability] waiting jobs are served round-robin across callers", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  // The first scan holds the only slot until every job has reached the worker.
  const runner = fakeRunner(() => gate);
  const env = await setup(runner, { concurrency: 1 });
  try {
    const domains = [...Array.from({ length: 10 }, (_, i) => `a${i}.test`), "b0.test", "c0.test"];
    for (let i = 0; i < 10; i++) await env.admit(jobFor(`a${i}.test`, "key:A"));
    await env.admit(jobFor("b0.test", "key:B"));
    await env.admit(jobFor("c0.test", "ip:192.0.2.7"));
    env.clock.now = T0 + 1000;
    // (Deno KV's queue may take several seconds to deliver on a loaded machine.)
    const until = Date.now() + 45_000;
    let held = false;
    // A held job's mark is renewed (every 100 ms here): all renewed = all held by the worker.
    while (!held && Date.now() < until) {
      const marks = await Promise.all(domains.map((d) => env.store.getInflight(d)));
      held = marks.every((m) => m?.renewedAt === T0 + 1000);
      if (!held) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(held, "every job reached the worker before the slot was released");
    release();
    // Every job, not the last admitted: a caller's own jobs need not start in admission order.
    for (const d of domains) await env.stored(d, 20_000);
    const at = (d: string) => runner.starts.indexOf(d);
    // One A job was running when the others arrived; then each caller gets one turn per round
    // (A, B and C in some order): B and C start within the first four, not 11th and 12th.
    assert.ok(at("b0.test") <= 3, `b0 started ${at("b0.test") + 1}th: ${runner.starts}`);
    assert.ok(at("c0.test") <= 3, `c0 started ${at("c0.test") + 1}th: ${runner.starts}`);
    assert.equal(runner.starts.length, 12);
  } finally {
    release();
    await env.close();
  }
});

Deno.test("[worker reliability] a job waiting for a slot keeps renewing its domain's in-flight mark", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  // One slot: whichever job the queue delivers first runs (held at the gate), the other waits.
  const runner = fakeRunner(() => gate);
  const env = await setup(runner, { concurrency: 1 });
  try {
    const jobs = [await env.admit(jobFor("one.test")), await env.admit(jobFor("two.test"))];
    env.clock.now = T0 + 50_000;
    const marks = async () =>
      await Promise.all(jobs.map((j) => env.store.getInflight(j.target.domain)));
    // (Deno KV's queue may take a few seconds to deliver on a loaded machine.)
    const until = Date.now() + 15_000;
    let now = await marks();
    while (!now.every((m) => m?.renewedAt === T0 + 50_000) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      now = await marks();
    }
    assert.equal(runner.starts.length, 1, "one runs, one waits");
    for (const [i, m] of now.entries()) {
      assert.equal(m?.renewedAt, T0 + 50_000, `renewed while held: ${JSON.stringify(m)}`);
      assert.equal(m.jobId, jobs[i].jobId);
      assert.equal(m.since, T0);
    }
    // The clean-up counts from the last renewal, not from the admission: 60 s after admission
    // both held jobs (one waiting, one running) keep their marks.
    const ttl = 60_000;
    const purged = await env.store.purgeExpired(T0 + ttl + 1, {
      recordsBefore: 0,
      inflightTtlMs: ttl,
      windowMs: 3600_000,
    });
    assert.equal(purged.inflight, 0);
    assert.ok(await env.store.getInflight("one.test"));
    assert.ok(await env.store.getInflight("two.test"));
    release();
    await env.stored("one.test");
    await env.stored("two.test");
  } finally {
    release();
    await env.close();
  }
});

Deno.test("[worker reliability] FairQueue: one turn per caller per round, each caller's order kept", () => {
  const q = new FairQueue();
  const order: string[] = [];
  for (
    const [caller, name] of [["A", "a1"], ["A", "a2"], ["A", "a3"], ["B", "b1"], ["C", "c1"], [
      "B",
      "b2",
    ]]
  ) {
    q.push(caller, () => order.push(name));
  }
  assert.equal(q.size, 6);
  while (q.size) q.shift()!();
  assert.deepEqual(order, ["a1", "b1", "c1", "a2", "b2", "a3"]);
  assert.equal(q.shift(), undefined);
});

// Keeps the BaseRecord import honest: the outcome above is a BaseRecord.
const _check: BaseRecord = okOutcome("x.test", () => new Date(T0)).record;

Deno.test("[worker reliability] the polled queue leases ready jobs round-robin across callers", async () => {
  const kv = await Deno.openKv(":memory:");
  const queue = new KvPolledQueue(kv, { leaseMs: 60_000, pollMs: 20, log: () => {} });
  const started: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  try {
    // One caller's 6 jobs admitted first, then one job each of two other callers.
    const jobs = [
      ...Array.from({ length: 6 }, (_, i) => jobFor(`a${i}.test`, "key:A")),
      jobFor("b0.test", "key:B"),
      jobFor("c0.test", "ip:192.0.2.9"),
    ];
    for (const [i, j] of jobs.entries()) {
      const op = kv.atomic();
      queue.add(op, { ...j, enqueuedAt: T0 + i });
      await op.commit();
    }
    let free = 3;
    const listening = queue.listen(async (job) => {
      free--;
      started.push((job as ScanJob).target.domain);
      await gate;
      free++;
    }, { capacity: () => free, fairKey: (job) => (job as ScanJob).caller ?? "" });
    const until = Date.now() + 5000;
    while (started.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // Three free slots: one job of each caller, not A's first three.
    assert.deepEqual(started.slice(0, 3).sort(), ["a0.test", "b0.test", "c0.test"]);
    release();
    while (started.length < 8 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await listening.stop();
    assert.equal(started.length, 8);
    assert.deepEqual(roundRobin(["a1", "b1", "a2", "c1", "a3", "b2"], (s) => s[0]), [
      "a1",
      "b1",
      "c1",
      "a2",
      "b2",
      "a3",
    ]);
  } finally {
    release();
    kv.close();
  }
});
