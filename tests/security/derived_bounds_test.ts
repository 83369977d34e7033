/**
 * Bounded derived artefacts (issue 26), against the server started as `deno task start` starts it
 * (the start task's V8 flags and permissions, tests/helpers/start_task_server.ts):
 * - a 0.3 MB page of 100,000 empty JSON-LD objects (once a 28 MB record whose report page took
 *   the server down) is scanned by both services, and its report page, kept scan, exports,
 *   history and a comparison are each served within {@link VIEW_BOUND_MS} while /healthz is
 *   probed every 50 ms;
 * - five planted 5.9 MB records (stored before records had a budget) and 20 concurrent
 *   comparisons of them: the server stays up, /healthz answers, each comparison is answered or
 *   asked to retry (429: the views of one caller queue, lib/kit/web/record_views.ts), and a planted
 *   record is read as its summary, which says so.
 *
 * The bounds: a view of this record takes 5-60 ms on a quiet machine; VIEW_BOUND_MS (5 s) is
 * room for a 2-core machine shared by other work, and still 8x under the 40 s one view took
 * before. /healthz must never be slower than 200 ms three probes in a row (a lone slow probe is
 * the machine's scheduling; three in a row is the server's thread stalling), and its median
 * stays under 50 ms.
 */
import assert from "node:assert/strict";
import { Store } from "../../lib/kit/storage/store.ts";
import { type StartedServer, startLikeStartTask } from "../helpers/start_task_server.ts";
import { visibilityRecord } from "../helpers/records.ts";
import { type HealthReport, probeHealth } from "./helpers/health_probe.ts";

const PIPELINE = "pipeline-token-for-derived-bounds-0123456789";
const VIEW_BOUND_MS = 5_000;

/** The 100,000-empty-objects page, and a decent one to compare it with. */
function startSites(): { port: number; close(): Promise<void> } {
  const empty = `<!doctype html><html lang="en"><head><title>Empty objects</title>` +
    `<script type="application/ld+json">[${Array(100_000).fill("{}").join(",")}]</script>` +
    `</head><body><h1>Empty objects</h1><p>A page.</p></body></html>`;
  const decent = `<!doctype html><html lang="en"><head><title>Decent</title>` +
    `<meta name="description" content="A decent page."></head><body><h1>Decent</h1>` +
    `<p>Some text.</p></body></html>`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
    if (new URL(req.url).pathname !== "/") return new Response("no", { status: 404 });
    const body = host === "empty.test" ? empty : host === "decent.test" ? decent : null;
    return body
      ? new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } })
      : new Response("no", { status: 404 });
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

function env(service: string, port: number, kvPath: string): Record<string, string> {
  return {
    SERVICE: service,
    KV_PATH: kvPath,
    PIPELINE_TOKEN: PIPELINE,
    SCAN_RESOLVE:
      `empty.test=127.0.0.1:${port},decent.test=127.0.0.1:${port},offsite.test=127.0.0.1:9`,
    WIKIDATA_API_URL: "http://offsite.test/w/api.php",
    WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
    COMMONCRAWL_INDEX_URL: "http://offsite.test",
    OFFSITE_TIMEOUT_MS: "300",
    SCAN_TIMEOUT_MS: "30000",
    LOG_REQUESTS: "0",
  };
}

async function scan(server: StartedServer, url: string, domain: string): Promise<void> {
  const res = await fetch(`${server.base}/api/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
    body: JSON.stringify({ url }),
  });
  await res.body?.cancel();
  assert.ok([200, 202].includes(res.status), `scan ${url}: ${res.status}`);
  const until = Date.now() + 90_000;
  for (;;) {
    const report = await fetch(`${server.base}/api/report/${domain}.json`);
    await report.body?.cancel();
    if (report.status === 200) return;
    if (server.exited()) throw new Error(`the server died:\n${server.output().slice(-3000)}`);
    if (Date.now() > until) throw new Error(`${domain} was never stored`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** GETs each path in turn, timing it; returns status, bytes and ms per path. */
async function view(server: StartedServer, paths: string[]) {
  const out: { path: string; status: number; bytes: number; ms: number }[] = [];
  for (const path of paths) {
    const t = performance.now();
    const res = await fetch(`${server.base}${path}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    out.push({ path, status: res.status, bytes, ms: Math.round(performance.now() - t) });
  }
  return out;
}

function assertResponsive(h: HealthReport, what: string) {
  assert.deepEqual(h.failures, [], what);
  assert.ok(h.worstRun < 3, `${what}: /healthz over 200 ms ${h.worstRun} times in a row`);
}

/** The id of the latest kept scan of a domain. */
async function keptScanId(server: StartedServer, domain: string): Promise<string> {
  const res = await fetch(`${server.base}/api/report/${domain}/history.json`);
  assert.equal(res.status, 200);
  const history = await res.json();
  const id = history.scans?.[0]?.id ?? history.entries?.[0]?.id;
  assert.ok(id, `a kept scan of ${domain}: ${JSON.stringify(history).slice(0, 300)}`);
  return id;
}

for (const service of ["schema", "visibility"] as const) {
  Deno.test({
    name:
      `[security/bounds] ${service}, start task: the 100,000-empty-objects page's views are served in bounds while /healthz answers`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const sites = startSites();
      const dir = await Deno.makeTempDir();
      const server = await startLikeStartTask(env(service, sites.port, `${dir}/kv.sqlite3`));
      try {
        await scan(server, "http://empty.test/", "empty.test");
        if (service === "visibility") await scan(server, "http://decent.test/", "decent.test");
        const record = await (await fetch(`${server.base}/api/report/empty.test.json`)).text();
        console.log(`${service}: the record is ${record.length} bytes`);
        assert.ok(record.length < 1024 * 1024, "within the record budget");
        const id = await keptScanId(server, "empty.test");
        const paths = [
          "/report/empty.test",
          `/report/empty.test/scans/${id}`,
          `/api/report/empty.test/scans/${id}.json`,
          "/api/report/empty.test.md",
          "/api/report/empty.test.html",
          "/api/report/empty.test/history.json",
          ...(service === "visibility"
            ? [
              "/compare?d=empty.test&d=decent.test",
              "/api/compare.json?d=empty.test&d=decent.test",
            ]
            : []),
        ];
        const health = probeHealth(server.base);
        // Each view three times in a row, then all of them at once.
        const timed = [
          ...await view(server, paths),
          ...await view(server, paths),
          ...await view(server, paths),
        ];
        const together = await Promise.all(paths.map((p) => view(server, [p])));
        const h = await health.stop();
        console.log(`${service}: ${JSON.stringify(timed.slice(0, paths.length))}`);
        console.log(`${service}: /healthz ${JSON.stringify(h)}`);
        for (const v of [...timed, ...together.flat()]) {
          assert.equal(v.status, 200, v.path);
          assert.ok(v.ms < VIEW_BOUND_MS, `${v.path}: ${v.ms} ms`);
        }
        assertResponsive(h, service);
        assert.equal(server.exited(), false);
      } finally {
        await server.kill();
        await sites.close();
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}

Deno.test({
  name:
    "[security/bounds] visibility, start task: five planted 5.9 MB records and 20 concurrent comparisons leave the server up",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite3`;
    // Planted before the server opens the file (one process per KV file): records stored as they
    // could have been before records had a budget.
    const kv = await Deno.openKv(kvPath);
    const store = new Store(kv, "visibility");
    const domains = ["big1.test", "big2.test", "big3.test", "big4.test", "big5.test"];
    for (const domain of domains) {
      const record = visibilityRecord(domain, {
        score: 50,
        grade: "C",
        pillarScores: [50, 50, 50],
        issues: [{ id: "a" }],
        scannedAt: new Date().toISOString(),
      });
      const signal = record.result!.pillars[0].signals[0];
      signal.evidence = Array.from({ length: 30_000 }, (_, i) => `evidence ${i} `.repeat(14));
      const outcome = await store.finishScan({
        kind: "scan",
        service: "visibility",
        jobId: crypto.randomUUID(),
        target: { domain, url: `https://${domain}/`, host: domain },
        credential: "pipeline",
        enqueuedAt: Date.now(),
      }, {
        record,
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: crypto.randomUUID(),
      });
      assert.equal(outcome, "stored");
    }
    const planted = JSON.stringify((await store.getScan("big1.test"))!.record).length;
    kv.close();
    const server = await startLikeStartTask(env("visibility", 9, kvPath));
    try {
      const query = domains.map((d) => `d=${d}`).join("&");
      const health = probeHealth(server.base);
      const t = performance.now();
      const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(
          `${server.base}/${i % 2 ? "api/compare.json" : "compare"}?${query}`,
        );
        const text = await res.text();
        return { status: res.status, bytes: text.length, text };
      }));
      const ms = Math.round(performance.now() - t);
      const h = await health.stop();
      console.log(
        `planted records read back as ${planted} bytes; 20 comparisons in ${ms} ms: ${
          JSON.stringify(answers.map((a) => `${a.status}:${a.bytes}`))
        }; /healthz ${JSON.stringify(h)}`,
      );
      assert.equal(server.exited(), false, "the server is up");
      // Each planted record is summarised once, in a scan thread, and kept: /healthz answers.
      assertResponsive(h, "planted");
      for (const a of answers) assert.ok([200, 429].includes(a.status), `${a.status}`);
      assert.ok(answers.some((a) => a.status === 200));
      for (const a of answers.filter((a) => a.status === 429)) {
        assert.ok(JSON.parse(a.text).retryAfterSeconds > 0 || /report views/.test(a.text));
      }
      // A planted record is read as its summary, which says so.
      const one = await (await fetch(`${server.base}/api/report/big1.test.json`)).json();
      assert.match(one.budget?.note ?? "", /summarised/);
      const page = await (await fetch(`${server.base}/report/big1.test`)).text();
      assert.match(page, /over the 1\.0 MiB a report may be/, "the report page says so");
      assert.ok(planted < 1024 * 1024, `read back as ${planted} bytes`);
    } finally {
      await server.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
