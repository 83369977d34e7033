/**
 * Every scan kept (lib/kit/storage/history.ts): a forced rescan followed to its completion through its
 * status URL while the old record is still served, permanent links, unknown ids, what changed
 * between two real records, and the retention of the hourly clean-up (injected clock).
 */
import { scanJob } from "../../helpers/records.ts";
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "../../helpers/app_env.ts";
import { type ServiceDef } from "../../../lib/service.ts";
import { scanSite } from "../../../lib/engines/visibility/scan.ts";
import { startScanEnv } from "../../helpers/scan_env.ts";
import { diffRecords } from "../../../lib/engines/history/diff.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { scanJsonPath, scanPagePath, scanStatusPath } from "../../../lib/kit/report_urls.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import { visibilityService } from "../../../lib/features/visibility/service.ts";

/** Checks answers against the schemas /openapi.json publishes. */
async function publishedSchemas(app: { request: (p: string) => Response | Promise<Response> }) {
  const doc = await (await app.request("/openapi.json")).json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    ajv.addSchema(schema as object, `#/components/schemas/${name}`);
  }
  return (name: string, value: unknown) => {
    const validate = ajv.getSchema(`#/components/schemas/${name}`)!;
    assert.ok(validate(value), `${name}: ${JSON.stringify(validate.errors)}`);
    return value as Record<string, unknown>;
  };
}

/** The real scanner, held at a gate before it starts, so a test sees the scan queued and running. */
function gatedService() {
  let open: () => void = () => {};
  let gate = new Promise<void>((r) => open = r);
  const service: ServiceDef = {
    ...visibilityService as ServiceDef,
    run: async (target, deps) => {
      deps.onProgress?.({ id: "waiting", text: "waiting at the test's gate" });
      await gate;
      return await visibilityService.run(target, deps);
    },
  };
  return {
    service,
    open: () => open(),
    close: () => gate = new Promise<void>((r) => open = r),
  };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  assert.match(res.headers.get("content-type") ?? "", /json/);
  return await res.json();
}

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`gave up waiting: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("[history] a forced rescan is followed to ITS completion while the old record is served", async () => {
  const gated = gatedService();
  const env = await startAppEnv({ worker: true, service: gated.service });
  const auth = { auth: `Bearer ${PIPELINE}` };
  try {
    const check = await publishedSchemas(env.app);
    gated.open();
    const first = check("ScanAccepted", await json(await env.scan({ url: "good.test" }, auth)));
    assert.equal(first.domain, "good.test");
    assert.equal(typeof first.scanId, "string");
    assert.equal(first.statusUrl, scanStatusPath(first.scanId as string));
    const done1 = await until(
      async () => await json(await env.app.request(first.statusUrl as string)),
      (s) => s.status === "done",
    );
    const oldRecord = await json(await env.report("good.test"));

    // The forced rescan: held at the gate, so it is visibly running while the old record is served.
    gated.close();
    env.clock.now += 3600_000;
    const second = await json(await env.scan({ url: "good.test", forceRescan: true }, auth));
    assert.notEqual(second.scanId, first.scanId, "the rescan has its own id");
    const running = await until(
      async () => await json(await env.app.request(second.statusUrl as string)),
      (s) => s.status === "running" && s.step === "waiting at the test's gate",
    );
    assert.equal(running.report, null);
    check("ScanStatus", running);
    assert.deepEqual(
      await json(await env.report("good.test")),
      oldRecord,
      "old record still served",
    );
    gated.open();
    const done2 = await until(
      async () => await json(await env.app.request(second.statusUrl as string)),
      (s) => s.status === "done",
    );
    check("ScanStatus", done2);
    const links = done2.report as { page: string; json: string };
    assert.equal(links.json, scanJsonPath("good.test", second.scanId as string));
    const latest = await json(await env.report("good.test"));
    assert.notEqual(latest.scannedAt, oldRecord.scannedAt, "the new record is the latest now");
    assert.deepEqual(check("ScanRecord", await json(await env.app.request(links.json))), latest);

    // The first scan's permanent link still names the first record.
    const firstLinks = done1.report as { page: string; json: string };
    assert.deepEqual(await json(await env.app.request(firstLinks.json)), oldRecord);
    const page = await env.app.request(firstLinks.page);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /good\.test/);

    // The history lists both, newest first, and the changes compare them.
    const history = check(
      "History",
      await json(await env.app.request("/api/report/good.test/history.json")),
    );
    const scans = history.scans as { id: string; page: string }[];
    assert.deepEqual(scans.map((s) => s.id), [second.scanId, first.scanId]);
    assert.equal(scans[1].page, scanPagePath("good.test", first.scanId as string));
    const changes = check(
      "Changes",
      await json(await env.app.request("/api/report/good.test/changes.json")),
    );
    const diff = changes.changes as { from: { id: string }; to: { id: string }; summary: string[] };
    assert.equal(diff.from.id, first.scanId);
    assert.equal(diff.to.id, second.scanId);
    assert.ok(diff.summary.length > 0);
    // The report page shows the history with links to each kept scan.
    const reportPage = await (await env.app.request("/report/good.test")).text();
    assert.ok(reportPage.includes(scanPagePath("good.test", first.scanId as string)));
    // A kept scan's page downloads that scan's record, not the latest one.
    const keptPage =
      await (await env.app.request(scanPagePath("good.test", first.scanId as string)))
        .text();
    const keptJson = scanJsonPath("good.test", first.scanId as string);
    assert.ok(keptPage.includes(`href="${keptJson}"`), "the kept scan's JSON is its download");
    assert.ok(!keptPage.includes('href="/api/report/good.test.json?download=1"'));
    assert.deepEqual(await json(await env.app.request(keptJson)), oldRecord);
  } finally {
    gated.open();
    await env.close();
  }
});

Deno.test("[history] an unknown scan id is a 404 JSON error, on every path", async () => {
  const env = await startAppEnv();
  try {
    for (
      const path of [
        scanStatusPath("0f0e7a4c-1b2d-4c3e-8f9a-0123456789ab"),
        scanStatusPath("not-an-id"),
        scanJsonPath("example.com", "0f0e7a4c-1b2d-4c3e-8f9a-0123456789ab"),
        "/api/report/example.com/history.json",
        "/api/report/example.com/changes.json",
      ]
    ) {
      const res = await env.app.request(path);
      assert.equal(res.status, 404, path);
      const body = await json(res);
      assert.equal(typeof body.error, "string", path);
    }
    const page = await env.app.request(
      scanPagePath("example.com", "0f0e7a4c-1b2d-4c3e-8f9a-0123456789ab"),
    );
    assert.equal(page.status, 404);
    await page.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("[history] the diff of two real records: score, pillars, fixed, new and changed", async () => {
  const scanEnv = await startScanEnv();
  try {
    const at = () => new Date("2026-11-21T10:00:00Z");
    const scan = async (domain: string) =>
      (await scanSite(domain, { config: scanEnv.config, now: at, offSiteCache: scanEnv.cache() }))
        .record as ScanRecord;
    const good = await scan("good.test");
    const noLlms = await scan("no-llms.test");
    const blocked = await scan("blocks-search.test");
    assert.equal(good.status, "ok");
    // good.test -> blocks-search.test: search crawlers blocked is a new critical issue.
    const worse = diffRecords(good, blocked, { from: "a", to: "b" });
    assert.ok(worse.scoreChange! < 0);
    assert.ok(worse.new.length > 0, "new issues");
    assert.ok(worse.new.some((i) => i.impact === "critical"), JSON.stringify(worse.new));
    assert.equal(worse.regression, true);
    assert.match(worse.summary[0], /The score went down from \d+ to \d+/);
    assert.ok(worse.summary.some((s) => s.startsWith("New issues")));
    // Back again: those issues are fixed.
    const better = diffRecords(blocked, good);
    assert.deepEqual(
      better.fixed.map((i) => i.id).sort(),
      worse.new.map((i) => i.id).sort(),
    );
    assert.equal(better.regression, false);
    assert.ok(better.summary.some((s) => s.startsWith("Fixed")));
    // Each pillar's change adds up to the difference of the pillar scores.
    for (const p of worse.pillars) {
      const from = good.result!.pillars.find((x) => x.id === p.id)!.score;
      const to = blocked.result!.pillars.find((x) => x.id === p.id)!.score;
      assert.equal(p.change, Math.round((to - from) * 10) / 10);
    }
    // A signal whose verdict changed otherwise (e.g. warn to fail, pass to info) is listed.
    const llms = diffRecords(good, noLlms);
    const all = [...llms.new, ...llms.fixed].map((i) => i.id);
    for (const c of llms.changed) assert.ok(!all.includes(c.id));
    assert.ok(llms.new.length + llms.changed.length > 0, "no llms.txt changes something");
    // The same record against itself: nothing changed, no regression.
    const same = diffRecords(good, good);
    assert.deepEqual([same.new, same.fixed, same.changed], [[], [], []]);
    assert.equal(same.regression, false);
    assert.ok(same.summary.includes("Nothing else changed."));
  } finally {
    await scanEnv.close();
  }
});

Deno.test("[history] retention: the hourly clean-up keeps the configured days and count", async () => {
  const env = await startAppEnv({ env: { HISTORY_RETENTION_DAYS: "10", HISTORY_MAX_SCANS: "3" } });
  try {
    const day = 24 * 3600_000;
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const ids: string[] = [];
    // One scan a day for 6 days, the last one the latest record.
    for (let i = 0; i < 6; i++) {
      const id = crypto.randomUUID();
      ids.push(id);
      const at = t0 + i * day;
      await env.store.finishScan(scanJob("kept.test", id, at), {
        record: {
          domain: "kept.test",
          status: "ok",
          scannedAt: new Date(at).toISOString(),
          result: null,
        },
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: id,
      });
    }
    assert.equal((await env.store.history.list("kept.test")).length, 6);
    const run = async (now: number) => {
      env.clock.now = now;
      await env.server.cleanUp();
      return (await env.store.history.list("kept.test")).map((e) => e.id);
    };
    // Day 6: all within 10 days, but only the newest 3 are kept.
    assert.deepEqual(await run(t0 + 6 * day), ids.slice(3).reverse());
    assert.equal(await env.store.history.get(ids[0]), null, "the body went with its entry");
    // Day 14: ids[3] (day 3) is 11 days old and goes; days 4 and 5 stay.
    assert.deepEqual(await run(t0 + 14 * day), ids.slice(4).reverse());
    // Day 30: everything is past 10 days, but the scan the latest record is stays linkable.
    assert.deepEqual(await run(t0 + 30 * day), [ids[5]]);
    assert.ok(await env.store.getScan("kept.test"));
    // Day 40: the record itself is past RECORD_RETENTION_DAYS (30) and goes; then its scan.
    await run(t0 + 40 * day);
    assert.equal(await env.store.getScan("kept.test"), null);
    assert.deepEqual(await run(t0 + 41 * day), []);
  } finally {
    await env.close();
  }
});

Deno.test("[history] the history's paths are written once and cannot break out of their segment", async () => {
  const { changesJsonPath, historyJsonPath } = await import("../../../lib/kit/report_urls.ts");
  assert.equal(scanPagePath("example.com", "a/b?c"), "/report/example.com/scans/a%2Fb%3Fc");
  assert.equal(scanJsonPath("example.com", "x"), "/api/report/example.com/scans/x.json");
  assert.equal(scanStatusPath("a\r\nb"), "/api/scans/a%0D%0Ab");
  assert.equal(historyJsonPath("example.com"), "/api/report/example.com/history.json");
  assert.equal(
    changesJsonPath("example.com", "1", "2"),
    "/api/report/example.com/changes.json?from=1&to=2",
  );
  const env = await startAppEnv();
  try {
    // Another spelling of the domain redirects to the kept scan's one path (id encoded).
    const res = await env.app.request("/report/WWW.Example.com/scans/a%0D%0Ab");
    assert.equal(res.status, 301);
    assert.equal(res.headers.get("location"), "/report/example.com/scans/a%0D%0Ab");
  } finally {
    await env.close();
  }
});
