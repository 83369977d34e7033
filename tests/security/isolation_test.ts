/**
 * Issue 21's "done when": the server started exactly as `deno task start` starts it (its V8 flags,
 * its 160 MB heap cap; tests/helpers/start_task_server.ts) scans hostile pages served on loopback
 * by a process of their own (tests/fixtures/hostile_pages.ts) and:
 * - stays up, and /healthz keeps answering within 200 ms (no three probes in a row slower);
 * - every scan ends in a stored record: ok, or failed saying the page is too large or too complex;
 * - a poison job is tried a bounded number of times, nothing is redelivered after, and the scan
 *   queued behind it is stored;
 * - a 30-product page and a 5 MB JSON-LD graph are stored and served whole on both services;
 * - one key's 40-scan backlog does not hold another caller's scan back beyond its turn.
 */
import assert from "node:assert/strict";
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import { TOO_COMPLEX } from "../../lib/kit/isolate/scan_threads.ts";
import { ScanRecordSchema } from "../../lib/engines/visibility/record.ts";
import { SchemaScanRecordSchema } from "../../lib/engines/structured/record.ts";
import { type StartedServer, startLikeStartTask } from "../helpers/start_task_server.ts";
import { createStore } from "../../lib/app/server.ts";
import { probeHealth } from "./helpers/health_probe.ts";

const PIPELINE = "pipeline-token-for-isolation-tests-0123456789";
const ROOT = new URL("../../", import.meta.url).pathname;

/** The hostile sites, in a process of their own; resolves to their port. */
async function startHostileSites(): Promise<{ port: number; close(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--no-check", "tests/fixtures/hostile_pages.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!/port \d+/.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`hostile sites did not start: ${out}`);
    out += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return {
    port: Number(out.match(/port (\d+)/)![1]),
    close: async () => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
    },
  };
}

function serverEnv(service: string, port: number, hosts: string[], kvPath: string) {
  return {
    SERVICE: service,
    KV_PATH: kvPath,
    PIPELINE_TOKEN: PIPELINE,
    SCAN_RESOLVE: [...hosts.map((h) => `${h}=127.0.0.1:${port}`), "offsite.test=127.0.0.1:9"]
      .join(","),
    WIKIDATA_API_URL: "http://offsite.test/w/api.php",
    WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
    COMMONCRAWL_INDEX_URL: "http://offsite.test",
    OFFSITE_TIMEOUT_MS: "300",
    SCAN_TIMEOUT_MS: "30000",
    LOG_REQUESTS: "0",
  };
}

async function post(base: string, url: string, auth = PIPELINE): Promise<number> {
  const res = await fetch(`${base}/api/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${auth}` },
    body: JSON.stringify({ url }),
  });
  await res.body?.cancel();
  return res.status;
}

/** Polls each domain's report until all are stored; returns their bodies. */
async function reports(
  server: StartedServer,
  domains: string[],
  timeoutMs: number,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const until = Date.now() + timeoutMs;
  while (out.size < domains.length) {
    if (server.exited()) throw new Error(`the server died:\n${server.output().slice(-3000)}`);
    if (Date.now() > until) {
      throw new Error(`never stored: ${domains.filter((d) => !out.has(d))}`);
    }
    for (const d of domains.filter((d) => !out.has(d))) {
      const res = await fetch(`${server.base}/api/report/${d}.json`);
      if (res.status === 200) out.set(d, await res.text());
      else await res.body?.cancel();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return out;
}

/** The worker's log lines of one kind. */
function events(server: StartedServer, event: string) {
  return server.events().filter((e) => e.event === event) as {
    domain: string;
    status?: string;
    failure?: string | null;
    jobId: string;
  }[];
}

/**
 * Waits until the server has printed `n` log lines of `event`: its logs are written in batches
 * (up to 50 ms after the fact), so a record can be served before its line is printed.
 */
async function printed(server: StartedServer, event: string, n: number): Promise<void> {
  await server.waitForEvents((e) => e.event === event, n);
}

/** Every hostile scan of `service` ends stored (ok, or failed for being too large/complex). */
async function hostileRun(service: "visibility" | "schema", hosts: string[]) {
  const sites = await startHostileSites();
  const dir = await Deno.makeTempDir();
  const server = await startLikeStartTask(
    { ...serverEnv(service, sites.port, hosts, `${dir}/kv.sqlite3`), WORKER_CONCURRENCY: "2" },
  );
  const health = probeHealth(server.base);
  try {
    for (const h of hosts) assert.equal(await post(server.base, `http://${h}/`), 202, h);
    const bodies = await reports(server, hosts, 150_000);
    const h = await health.stop();
    console.log(`${service}: /healthz ${JSON.stringify(h)}`);
    assert.equal(server.exited(), false, "the server is up");
    assert.deepEqual(h.failures, []);
    assert.ok(h.worstRun < 3, `/healthz slower than 200 ms ${h.worstRun} times in a row`);
    const schema = service === "visibility" ? ScanRecordSchema : SchemaScanRecordSchema;
    await printed(server, "scan.finished", hosts.length);
    const finished = events(server, "scan.finished");
    for (const host of hosts) {
      const record = schema.parse(JSON.parse(bodies.get(host)!));
      const log = finished.filter((e) => e.domain === host);
      assert.equal(log.length, 1, `${host} finished once`);
      if (record.status === "failed") {
        assert.ok(log[0].failure?.startsWith(TOO_COMPLEX), `${host}: ${log[0].failure}`);
      }
    }
    // Nothing comes back: a second later no scan has started again.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(events(server, "scan.finished").length, hosts.length);
    return bodies;
  } finally {
    await health.stop();
    await server.kill();
    await sites.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "[security/isolation] visibility, start task's heap cap: hostile pages cost one scan each, never the server",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const bodies = await hostileRun("visibility", [
      "drip.test",
      "nested.test",
      "bomb.test",
      "attrs.test",
      "graph.test",
      "tables.test",
      "products.test",
      "decent.test",
    ]);
    // 0.5 MiB in 1-byte chunks is read whole (the fetcher's buffer no longer grows per chunk).
    assert.equal(JSON.parse(bodies.get("drip.test")!).status, "ok");
    for (const host of ["products.test", "graph.test"]) {
      const record = ScanRecordSchema.parse(JSON.parse(bodies.get(host)!));
      assert.equal(record.status, "ok", host);
    }
    // The visibility record of a 5 MB graph is no longer large (its fixes quote the site's own
    // facts, not the page's graph: about 25 KB); a record over KV's 64 KiB is stored in parts and
    // served whole on the schema service below and in tests/store_records_test.ts.
    const graph = ScanRecordSchema.parse(JSON.parse(bodies.get("graph.test")!));
    assert.equal(graph.result?.pillars.length, 6, "the whole record is served");
  },
});

Deno.test({
  name:
    "[security/isolation] schema, start task's heap cap: hostile pages cost one scan each; large records stored and served whole",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const bodies = await hostileRun("schema", [
      "paras.test",
      "bomb.test",
      "graph.test",
      "products.test",
      "decent.test",
    ]);
    const products = SchemaScanRecordSchema.parse(JSON.parse(bodies.get("products.test")!));
    assert.equal(products.status, "ok");
    assert.ok(bodies.get("products.test")!.length > 64 * 1024, "over KV's 64 KiB, served whole");
    assert.equal(
      products.result!.detected.jsonLd.length > 0
        ? products.result!.summary.types.includes("Product")
        : false,
      true,
    );
    const graph = SchemaScanRecordSchema.parse(JSON.parse(bodies.get("graph.test")!));
    assert.equal(graph.status, "ok");
    assert.ok(bodies.get("graph.test")!.length > 256 * 1024, "the 5 MB graph's record, whole");
  },
});

Deno.test({
  name:
    "[security/isolation] a poison job is tried twice, stored failed with its reason, and the scan behind it is stored",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const sites = await startHostileSites();
    const dir = await Deno.makeTempDir();
    const hosts = ["stall.test", "decent2.test"];
    // One scan at a time, and a thread time limit far shorter than the 60 s the stalling page
    // takes (a wait, so the limit is passed on any machine, however fast) and far longer than a
    // decent scan needs on a loaded machine (its 29 requests, 2 in flight: at 1 s it failed under
    // load 7).
    const server = await startLikeStartTask({
      ...serverEnv("visibility", sites.port, hosts, `${dir}/kv.sqlite3`),
      WORKER_CONCURRENCY: "1",
      SCAN_THREAD_TIMEOUT_MS: "8000",
    });
    const health = probeHealth(server.base);
    try {
      assert.equal(await post(server.base, "http://stall.test/"), 202);
      assert.equal(await post(server.base, "http://decent2.test/"), 202);
      const bodies = await reports(server, hosts, 120_000);
      const h = await health.stop();
      console.log(`poison: /healthz ${JSON.stringify(h)}`);
      assert.ok(h.worstRun < 3, `/healthz slower than 200 ms ${h.worstRun} times in a row`);
      assert.equal(JSON.parse(bodies.get("stall.test")!).status, "failed");
      assert.equal(JSON.parse(bodies.get("decent2.test")!).status, "ok");
      await printed(server, "scan.finished", 2);
      const [finished] = events(server, "scan.finished").filter((e) => e.domain === "stall.test");
      assert.equal(finished.failure, `${TOO_COMPLEX} (it took longer than 8 s)`);
      const tries = server.events().filter((e) =>
        e.event === "scan.isolation_failed" && e.jobId === finished.jobId
      );
      assert.equal(tries.length, 2, "tried twice");
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(events(server, "scan.finished").length, 2, "nothing redelivered");
      assert.equal(server.exited(), false);
    } finally {
      await health.stop();
      await server.kill();
      await sites.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    "[security/isolation] one key's 40-scan backlog does not hold another caller's scan back beyond its turn",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const sites = await startHostileSites();
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite3`;
    const kv = await Deno.openKv(kvPath);
    const store = createStore(kv, "visibility");
    const busy = (await createApiKey(store, "uvk_", { name: "backlog" })).key;
    const other = (await createApiKey(store, "uvk_", { name: "bystander" })).key;
    kv.close();
    const hosts = [...Array.from({ length: 40 }, (_, i) => `s${i + 1}.test`), "s99.test"];
    const server = await startLikeStartTask({
      ...serverEnv("visibility", sites.port, hosts, kvPath),
      WORKER_CONCURRENCY: "2",
    });
    try {
      for (let i = 1; i <= 40; i++) assert.equal(await post(server.base, `s${i}.test`, busy), 202);
      assert.equal(await post(server.base, "s99.test", other), 202);
      await reports(server, ["s99.test"], 60_000);
      await server.waitForEvents((e) => e.event === "scan.finished" && e.domain === "s99.test");
      const order = events(server, "scan.finished").map((e) => e.domain);
      const position = order.indexOf("s99.test") + 1;
      console.log(`fairness: the other caller's scan finished ${position}th of ${order.length}`);
      // Two slots: at most the two running backlog scans and the backlog's next turn before it
      // (one more for a scan finishing as it arrives); first in, first out would make it 41st.
      assert.ok(position <= 5, `finished ${position}th: ${order}`);
    } finally {
      await server.kill();
      await sites.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
