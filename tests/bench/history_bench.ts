/**
 * The history at 1,000 kept scans of one domain (lib/kit/storage/history.ts): listing them, the diff of
 * two scans, and the report page that shows both, each against a baseline measured in the same run
 * (`deno bench` prints "x times slower than" the group's baseline):
 *   - group "read": the baseline is reading the latest record (Store.getScan, the report's read);
 *   - group "page": the baseline is the report page of a domain scanned once.
 * The records are real scans of two fixture sites (tests/fixtures/site_server.ts), alternated.
 *
 *   deno bench -A tests/bench/history_bench.ts
 */
import { startAppEnv } from "../helpers/app_env.ts";
import { startScanEnv } from "../helpers/scan_env.ts";
import { scanSite } from "../../lib/engines/visibility/scan.ts";
import { changesOf, historyOf } from "../../lib/engines/history/service.ts";
import type { ScanJob } from "../../lib/kit/storage/store.ts";
import type { BaseRecord } from "../../lib/service.ts";

const KEPT = 1000;
const scanEnv = await startScanEnv();
const env = await startAppEnv({ env: { HISTORY_MAX_SCANS: String(KEPT) } });
const at = () => new Date(env.clock.now);
const real: BaseRecord[] = [];
for (const site of ["good.test", "blocks-search.test"]) {
  real.push(
    (await scanSite(site, { config: scanEnv.config, now: at, offSiteCache: scanEnv.cache() }))
      .record,
  );
}
await scanEnv.close();

async function keep(domain: string, record: BaseRecord, ms: number): Promise<string> {
  const id = crypto.randomUUID();
  const job: ScanJob = {
    kind: "scan",
    service: "visibility",
    jobId: id,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "pipeline",
    enqueuedAt: ms,
  };
  await env.store.finishScan(job, {
    record: { ...record, domain, scannedAt: new Date(ms).toISOString() },
    failure: null,
    credential: "pipeline",
    durationMs: 1,
    jobId: id,
  });
  return id;
}

const t0 = env.clock.now - KEPT * 3600_000;
const ids: string[] = [];
const started = performance.now();
for (let i = 0; i < KEPT; i++) ids.push(await keep("busy.test", real[i % 2], t0 + i * 3600_000));
console.log(
  `kept ${KEPT} scans of busy.test in ${Math.round(performance.now() - started)} ms ` +
    `(${JSON.stringify(real[0]).length} and ${JSON.stringify(real[1]).length} bytes of JSON each)`,
);
await keep("once.test", real[0], t0);
if ((await historyOf(env.store, "busy.test")).length !== KEPT) throw new Error("not all kept");

Deno.bench("latest record (Store.getScan)", { group: "read", baseline: true }, async () => {
  await env.store.getScan("busy.test");
});
Deno.bench(`history list of ${KEPT} (History.list)`, { group: "read" }, async () => {
  await env.store.history.list("busy.test");
});
Deno.bench(`GET history.json of ${KEPT}`, { group: "read" }, async () => {
  await (await env.app.request("/api/report/busy.test/history.json")).arrayBuffer();
});
Deno.bench("changes: latest against the one before", { group: "read" }, async () => {
  await changesOf(env.store, "busy.test");
});
Deno.bench(`changes: first against last of ${KEPT}`, { group: "read" }, async () => {
  await changesOf(env.store, "busy.test", { from: ids[0], to: ids[KEPT - 1] });
});
Deno.bench("report page, scanned once", { group: "page", baseline: true }, async () => {
  await (await env.app.request("/report/once.test")).arrayBuffer();
});
Deno.bench(`report page with ${KEPT} kept scans`, { group: "page" }, async () => {
  await (await env.app.request("/report/busy.test")).arrayBuffer();
});
Deno.bench(`a kept scan's page (of ${KEPT})`, { group: "page" }, async () => {
  await (await env.app.request(`/report/busy.test/scans/${ids[KEPT / 2]}`)).arrayBuffer();
});
