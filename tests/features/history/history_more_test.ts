/**
 * Every scan kept, continued (tests/features/history/history_test.ts): the MCP tools, the scan thread's steps, the
 * one-commit write of a record and its history entry, and the schema service's per-page history.
 */
import { scanJob } from "../../helpers/records.ts";
import assert from "node:assert/strict";
import { startAppEnv } from "../../helpers/app_env.ts";
import { scanSite } from "../../../lib/engines/visibility/scan.ts";
import { startScanEnv } from "../../helpers/scan_env.ts";
import { scanJsonPath } from "../../../lib/kit/report_urls.ts";
import { createStore } from "../../../lib/app/server.ts";

Deno.test("[history] MCP: list_scans and compare_scans read the kept scans", async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const scanEnv = await startScanEnv();
  const env = await startAppEnv();
  try {
    const at = (ms: number) => () => new Date(ms);
    const t0 = env.clock.now - 7200_000;
    const ids: string[] = [];
    for (const [i, site] of ["blocks-search.test", "good.test"].entries()) {
      const { record } = await scanSite(site, {
        config: scanEnv.config,
        now: at(t0 + i * 3600_000),
        offSiteCache: scanEnv.cache(),
      });
      const id = crypto.randomUUID();
      ids.push(id);
      // The same site's record twice, as if it was fixed between the two scans.
      await env.store.finishScan(scanJob("shop.example", id, t0), {
        record: { ...record, domain: "shop.example" },
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: id,
      });
    }
    const client = new Client({ name: "test-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
        fetch: (url: string | URL, init?: RequestInit) => {
          const request = new Request(url, init);
          request.headers.set("x-forwarded-for", "203.0.113.70");
          return Promise.resolve(env.app.request(request));
        },
      }),
    );
    const list = await client.callTool({
      name: "list_scans",
      arguments: { domain: "shop.example" },
    });
    const scans = (list.structuredContent as { scans: { id: string; json: string }[] }).scans;
    assert.deepEqual(scans.map((s) => s.id), [ids[1], ids[0]]);
    assert.equal(scans[0].json, scanJsonPath("shop.example", ids[1]));
    const compared = await client.callTool({
      name: "compare_scans",
      arguments: { domain: "shop.example" },
    });
    const changes = (compared.structuredContent as {
      changes: { fixed: { id: string }[]; scoreChange: number; regression: boolean };
    }).changes;
    assert.ok(changes.fixed.length > 0, "the blocked crawlers are fixed");
    assert.ok(changes.scoreChange > 0);
    assert.equal(changes.regression, false);
    const reverse = await client.callTool({
      name: "compare_scans",
      arguments: { domain: "shop.example", from: ids[1], to: ids[0] },
    });
    assert.equal(
      (reverse.structuredContent as { changes: { regression: boolean } }).changes.regression,
      true,
    );
    const unknown = await client.callTool({
      name: "compare_scans",
      arguments: { domain: "shop.example", from: crypto.randomUUID() },
    });
    assert.equal(unknown.isError, true);
    await client.close();
  } finally {
    await env.close();
    await scanEnv.close();
  }
});

Deno.test("[history] a scan thread reports the real steps of the scan, in order, each with its typed id", async () => {
  const { startScanThreads } = await import("../../../lib/kit/isolate/scan_threads.ts");
  const { normaliseTarget } = await import("../../../lib/kit/net/target.ts");
  const { SERVICES } = await import("../../../lib/app/server.ts");
  const scanEnv = await startScanEnv();
  const runner = startScanThreads({
    heapMb: 128,
    timeoutMs: 20_000,
    scanners: { visibility: SERVICES.visibility.scanner.href },
  });
  try {
    const steps: string[] = [];
    const ids: string[] = [];
    const outcome = await runner.run(
      "visibility",
      normaliseTarget("good.test"),
      scanEnv.config,
      () => new Date("2026-11-21T10:00:00Z"),
      (step) => {
        steps.push(step.text);
        ids.push(step.id);
      },
    );
    assert.equal(outcome.record.status, "ok");
    assert.match(steps[0], /^fetching https:\/\/good\.test\/ and its robots\.txt/);
    assert.ok(steps.includes("checking Wikidata, Wikipedia and Common Crawl"), steps.join(" | "));
    assert.equal(steps[steps.length - 1], "scoring");
    // The typed ids the progress card places the scan by: every one has a row of the card.
    assert.deepEqual([ids[0], ids[ids.length - 1]], ["fetching", "scoring"]);
    assert.ok(ids.includes("offsite"), ids.join(" | "));
    const rows = SERVICES.visibility.progress.flatMap((r) => r.steps as string[]);
    assert.deepEqual(ids.filter((id) => !rows.includes(id)), []);
  } finally {
    await runner.close();
    await scanEnv.close();
  }
});

Deno.test("[history] a record and its history entry are one commit: a failed write leaves neither", async () => {
  const raw = await Deno.openKv(":memory:");
  let failCommits = false;
  // A KV whose atomic commits fail (a crash, a full disk) while the flag is up.
  const kv = new Proxy(raw, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => failCommits ? Promise.reject(new Error("disk full")) : commit();
          return op;
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  try {
    const store = createStore(kv, "visibility");
    const at = Date.parse("2026-11-21T10:00:00Z");
    const stored = (id: string) => ({
      record: {
        domain: "a.test",
        status: "ok" as const,
        scannedAt: new Date(at).toISOString(),
        result: null,
      },
      failure: null,
      credential: "pipeline" as const,
      durationMs: 1,
      jobId: id,
    });
    const id = crypto.randomUUID();
    failCommits = true;
    await assert.rejects(
      () => store.finishScan(scanJob("a.test", id, at), stored(id)),
      /disk full/,
    );
    assert.equal(await store.getScan("a.test"), null);
    assert.deepEqual(await store.history.list("a.test"), []);
    assert.equal(await store.history.get(id), null);
    failCommits = false;
    await store.finishScan(scanJob("a.test", id, at), stored(id));
    assert.equal((await store.getScan("a.test"))?.jobId, id);
    assert.deepEqual((await store.history.list("a.test")).map((e) => e.id), [id]);
    // Delivered again (at least once): one entry, still.
    await store.finishScan(scanJob("a.test", id, at), stored(id));
    assert.equal((await store.history.list("a.test")).length, 1);
  } finally {
    raw.close();
  }
});

Deno.test("[history] schema service: each page has its own history, compared page with page", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "schema");
    const t0 = Date.parse("2026-11-21T10:00:00Z");
    const finding = (path: string, severity: "error" | "warning") => ({
      severity,
      source: "jsonld",
      itemIndex: 0,
      path,
      type: "Product",
      property: path.split(".").pop(),
      message: `${path} is missing`,
      rule: "google:Product",
    });
    const page = (url: string, i: number, findings: ReturnType<typeof finding>[]) => {
      const id = crypto.randomUUID();
      const scannedAt = new Date(t0 + i * 60_000).toISOString();
      const errors = findings.filter((f) => f.severity === "error").length;
      return store.finishScan({ ...scanJob("shop.test", id, t0 + i * 60_000), service: "schema" }, {
        record: {
          domain: "shop.test",
          url,
          status: "ok",
          scannedAt,
          result: {
            findings,
            summary: { items: 1, errors, warnings: findings.length - errors },
          },
        } as never,
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: id,
      }).then(() => id);
    };
    const a1 = await page("https://shop.test/a", 0, [finding("Product.offers", "error")]);
    await page("https://shop.test/b", 1, []);
    const a2 = await page("https://shop.test/a", 2, [finding("Product.image", "warning")]);
    const { changesOf } = await import("../../../lib/engines/history/service.ts");
    const diff = (await changesOf(store, "shop.test"))!;
    assert.equal(diff.from.id, a1, "compared with the same page, not the page scanned between");
    assert.equal(diff.to.id, a2);
    assert.deepEqual(diff.fixed.map((f) => f.id), ["google:Product:Product.offers"]);
    assert.deepEqual(diff.new.map((f) => f.id), ["google:Product:Product.image"]);
    assert.equal(diff.regression, false, "a warning is not critical");
    assert.ok(diff.summary.includes("Errors: 1 before, 0 now, Warnings: 0 before, 1 now."));
    // The schema report page shows the same changes, its counts in a table of their own.
    const { ReportChanges } = await import(
      "../../../lib/features/history/views/report_changes.tsx"
    );
    const { renderToString } = await import("preact-render-to-string");
    const html = renderToString(ReportChanges({ domain: "shop.test", diff, currentId: a2 })!);
    assert.match(html, /<caption>Counts<\/caption>/);
    assert.match(html, /<td class="num up">-1<\/td>/, "fewer errors is better");
    // Retention counts per page: with at most 1 scan per target, page b's only scan stays.
    const out = await store.history.purge({ before: 0, maxPerTarget: 1 });
    assert.equal(out.historyEntries, 1);
    assert.deepEqual(
      (await store.history.list("shop.test")).map((e) => e.url),
      ["https://shop.test/a", "https://shop.test/b"],
    );
  } finally {
    kv.close();
  }
});
