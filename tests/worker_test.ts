/**
 * Background scans: the queue worker end to end in-process against the fixture sites, its
 * idempotence and concurrency bound, and a server process killed mid-scan and restarted.
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";
import type { ServiceDef } from "../lib/service.ts";
import { startFixtureSites } from "./fixtures/site_server.ts";

async function poll(get: () => Promise<Response>, timeoutMs: number): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await get();
    if (res.status === 200) return res;
    await res.body?.cancel();
    if (Date.now() > until) throw new Error(`still ${res.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test("[worker] a pipeline scans a fixture site: 202, poll, a complete ScanRecord", async () => {
  const env = await startAppEnv({ worker: true });
  try {
    const res = await env.scan({ url: "good.test" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(res.status, 202);
    const accepted = await res.json();
    assert.equal(accepted.domain, "good.test");
    assert.deepEqual(
      Object.keys(accepted),
      ["domain", "scanId", "statusUrl"],
      "additive fields only",
    );
    const done = await poll(() => env.report("good.test"), 15_000);
    const record = ScanRecordSchema.parse(await done.json());
    assert.equal(record.status, "ok");
    assert.ok(record.result!.score >= 90);
    assert.equal(await env.store.getInflight("good.test"), null, "the in-flight mark is cleared");
    const cached = await env.scan({ url: "good.test" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(cached.status, 200, "the next request is a cache hit");
    const stored = await env.store.getScan("good.test");
    assert.equal(stored?.credential, "pipeline");
  } finally {
    await env.close();
  }
});

Deno.test("[worker] a site that fails gets a failed record with result null, and a retry later", async () => {
  const env = await startAppEnv({ worker: true });
  try {
    assert.equal(
      (await env.scan({ url: "down.test" }, { auth: `Bearer ${PIPELINE}` })).status,
      202,
    );
    const record = ScanRecordSchema.parse(
      await (await poll(() => env.report("down.test"), 15_000)).json(),
    );
    assert.equal(record.status, "failed");
    assert.equal(record.result, null);
    assert.equal(
      (await env.store.getScan("down.test"))?.failure,
      "the home page answered HTTP 503",
    );
    assert.equal(
      (await env.scan({ url: "down.test" }, { auth: `Bearer ${PIPELINE}` })).status,
      200,
    );
    env.clock.now += 16 * 60_000;
    const retry = await env.scan({ url: "down.test" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(retry.status, 202, "a failed record stops being served after 15 minutes");
  } finally {
    await env.close();
  }
});

/** A service whose scans take a while and count how many run at once. */
function countingService(delayMs: number) {
  const stats = { running: 0, peak: 0, runs: 0 };
  const service: ServiceDef = {
    ...visibilityService as ServiceDef,
    title: "counting",
    run: async (target, { now }) => {
      stats.running++;
      stats.runs++;
      stats.peak = Math.max(stats.peak, stats.running);
      await new Promise((r) => setTimeout(r, delayMs));
      stats.running--;
      return {
        record: {
          domain: target.domain,
          status: "failed",
          scannedAt: now().toISOString(),
          result: null,
        },
        failure: "counted",
      };
    },
  };
  return { service, stats };
}

Deno.test("[worker] at most `concurrency` scans run at once and every one is stored", async () => {
  const { service, stats } = countingService(150);
  const env = await startAppEnv({ worker: true, service });
  try {
    const { key } = await env.newKey();
    for (let i = 0; i < 12; i++) {
      assert.equal((await env.scan({ url: `c${i}.test` }, { auth: `Bearer ${key}` })).status, 202);
    }
    for (let i = 0; i < 12; i++) await poll(() => env.report(`c${i}.test`), 10_000);
    assert.equal(stats.runs, 12);
    assert.ok(stats.peak <= 4, `peak ${stats.peak}`);
    assert.ok(stats.peak >= 2, "scans do run in parallel");
  } finally {
    await env.close();
  }
});

Deno.test("[worker] a job delivered twice is scanned once", async () => {
  const { service, stats } = countingService(10);
  const env = await startAppEnv({ worker: true, service });
  try {
    assert.equal(
      (await env.scan({ url: "twice.test" }, { auth: `Bearer ${PIPELINE}` })).status,
      202,
    );
    await poll(() => env.report("twice.test"), 5000);
    const stored = await env.store.getScan("twice.test");
    // Redeliver the same job, as KV queues may after a crash.
    await env.kv.enqueue({
      kind: "scan",
      service: "visibility",
      jobId: stored!.jobId,
      domain: "twice.test",
      url: "https://twice.test/",
      host: "twice.test",
      credential: "pipeline",
      enqueuedAt: env.clock.now - 1000,
    });
    await new Promise((r) => setTimeout(r, 300));
    await env.worker!.idle();
    assert.equal(stats.runs, 1);
    assert.deepEqual(await env.store.getScan("twice.test"), stored);
  } finally {
    await env.close();
  }
});

Deno.test({
  name: "[worker] a server killed (SIGKILL) mid-scan finishes the scan after a restart",
  // KV's SQLite queue hands a crashed process's messages out again after about a minute.
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const slowSites = await startFixtureSites({ delayMs: 4000 });
    const fastSites = await startFixtureSites();
    const start = (scanResolve: string, port: number) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--unstable-kv", new URL("../main.ts", import.meta.url).pathname],
        env: {
          PORT: String(port),
          KV_PATH: `${dir}/kv.sqlite3`,
          PIPELINE_TOKEN: PIPELINE,
          // The off-site services point at a closed loopback port: nothing leaves this machine.
          SCAN_RESOLVE: `${scanResolve},offsite.test=127.0.0.1:9`,
          SCAN_TIMEOUT_MS: "20000",
          OFFSITE_TIMEOUT_MS: "300",
          WIKIDATA_API_URL: "http://offsite.test/w/api.php",
          WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
          COMMONCRAWL_INDEX_URL: "http://offsite.test",
        },
        // Not piped: the server logs a line per request, and an unread pipe would fill and block it.
        stdout: "null",
        stderr: "null",
      }).spawn();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const base = `http://127.0.0.1:${port}`;
    // Start-up on a loaded machine can take well over ten seconds (the module graph, the scan
    // threads): wait up to a minute; the test is about the restart, not the start-up's speed.
    const waitUp = async () => {
      for (let i = 0; i < 600; i++) {
        try {
          const r = await fetch(`${base}/api/report/good.test.json`);
          await r.body?.cancel();
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw new Error("server did not start");
    };
    const first = start(slowSites.scanResolve, port);
    try {
      await waitUp();
      const res = await fetch(`${base}/api/scan`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
        body: JSON.stringify({ url: "good.test" }),
      });
      assert.equal(res.status, 202);
      await res.body?.cancel();
      // Wait until the scan is under way (the slow site has been asked), then kill the server.
      for (let i = 0; i < 50 && !slowSites.requests.some((r) => r.host === "good.test"); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(slowSites.requests.length > 0, "the scan had started");
      first.kill("SIGKILL");
      await first.status;
      const second = start(fastSites.scanResolve, port);
      try {
        await waitUp();
        const done = await poll(() => fetch(`${base}/api/report/good.test.json`), 120_000);
        const record = ScanRecordSchema.parse(await done.json());
        assert.equal(record.status, "ok");
        // Not stuck in flight: the next request is served from the stored record.
        const next = await fetch(`${base}/api/scan`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
          body: JSON.stringify({ url: "good.test" }),
        });
        assert.equal(next.status, 200);
        await next.body?.cancel();
      } finally {
        second.kill("SIGKILL");
        await second.status;
      }
    } finally {
      await slowSites.close();
      await fastSites.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
