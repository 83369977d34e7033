/**
 * A scan job carries its target whole (lib/kit/storage/store_types.ts ScanJob.target): POST
 * /api/scan queues what normaliseTarget made of the input, the worker hands that same target to
 * the scanner without normalising it again, and a job queued by an earlier version (its target in
 * five loose fields) is read into its target as it was queued.
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import { JOB_QUEUE_PREFIX } from "../lib/kit/storage/job_queue.ts";
import { normaliseTarget, type Target } from "../lib/kit/net/target.ts";
import { scanJobOf, startWorker } from "../lib/engines/scan/worker.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { createStore } from "../lib/app/server.ts";
import type { ScanRunner } from "../lib/kit/isolate/scan_threads.ts";
import type { RunOutcome } from "../lib/service.ts";
import type { ScanJob } from "../lib/kit/storage/store.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";

const INPUT = "HTTPS://WWW.Shop.Example:443/products/trail?size=9#reviews";

Deno.test("[scan job] POST /api/scan queues the target whole, as normaliseTarget made it", async () => {
  const env = await startAppEnv({ queue: "poll" });
  try {
    const res = await env.scan({ url: INPUT, render: true }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(res.status, 202);
    const queued = [];
    for await (const e of env.kv.list<{ job: ScanJob }>({ prefix: JOB_QUEUE_PREFIX })) {
      queued.push(e.value.job);
    }
    assert.equal(queued.length, 1);
    assert.deepEqual(queued[0].target, { ...normaliseTarget(INPUT), render: true });
    // Nothing of the target is spelled out beside it.
    for (const field of ["domain", "url", "host", "pageUrl", "render"]) {
      assert.equal(field in queued[0], false, `${field} outside the target`);
    }
  } finally {
    await env.close();
  }
});

Deno.test("[scan job] the worker hands the scanner the job's target as it was queued", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = createStore(kv, "visibility");
  const seen: Target[] = [];
  const runner: ScanRunner = {
    kind: "inline",
    warmed: () => Promise.resolve(),
    run(_service, target, _config, now) {
      seen.push(target);
      return Promise.resolve({
        record: {
          domain: target.domain,
          status: "ok",
          scannedAt: now().toISOString(),
          result: null,
        },
        failure: null,
      } as RunOutcome);
    },
    runJob: () => Promise.reject(new Error("no jobs here")),
    runStream: () => Promise.reject(new Error("no jobs here")),
    close: () => Promise.resolve(),
  };
  const worker = startWorker({
    kv,
    stores: { visibility: store },
    services: { visibility: visibilityService },
    config: loadConfig({}),
    concurrency: 1,
    now: () => new Date(Date.parse("2030-05-01T00:00:00Z")),
    log: () => {},
    runner,
  });
  try {
    // A target normaliseTarget would not give back from its url: the host is not the url's, the
    // page is not under it. Taken again from the url, the worker would hand the scanner another.
    const target: Target = {
      domain: "shop.example",
      host: "www.shop.example",
      url: "https://shop.example/",
      pageUrl: "https://www.shop.example/products/trail?size=9",
      render: true,
    };
    const job: ScanJob = {
      kind: "scan",
      service: "visibility",
      jobId: crypto.randomUUID(),
      target,
      credential: "pipeline",
      enqueuedAt: Date.parse("2030-05-01T00:00:00Z"),
    };
    assert.equal((await store.admitScan(job, [], job.enqueuedAt, 60_000)).status, "admitted");
    const until = Date.now() + 15_000;
    while (!seen.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(seen, [target]);
  } finally {
    await worker.idle();
    await worker.stop();
    kv.close();
  }
});

Deno.test("[scan job] a job queued by an earlier version is read into its target as queued", () => {
  const loose = {
    kind: "scan",
    service: "schema",
    jobId: "j1",
    domain: "shop.example",
    url: "https://www.shop.example/",
    pageUrl: "https://www.shop.example/products/trail",
    host: "www.shop.example",
    credential: "key",
    enqueuedAt: 5,
    caller: "key:k1",
  };
  assert.deepEqual(scanJobOf(loose), {
    kind: "scan",
    service: "schema",
    jobId: "j1",
    target: {
      domain: "shop.example",
      url: "https://www.shop.example/",
      pageUrl: "https://www.shop.example/products/trail",
      host: "www.shop.example",
    },
    credential: "key",
    enqueuedAt: 5,
    caller: "key:k1",
  });
  const whole = { ...loose, target: normaliseTarget("shop.example") };
  assert.equal(scanJobOf(whole), whole);
  for (const junk of [null, "scan", { kind: "scan" }, { ...loose, kind: "watch" }]) {
    assert.equal(scanJobOf(junk), null);
  }
});
