/**
 * Schema Markup Generator, end to end: scanPage over loopback through the guarded fetcher (the
 * fixture pages served as schema.test, and the shared fixture site good.test), the failed-page
 * cases, and the service behind the API: SERVICE=schema, a `usk_` key, the queue worker, the
 * report, and a cache that answers only for the page asked about.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { SchemaScanRecordSchema } from "../lib/engines/structured/record.ts";
import { scanPage } from "../lib/engines/schema/scan.ts";
import { startAppEnv } from "./helpers/app_env.ts";
import { startScanEnv } from "./helpers/scan_env.ts";
import { fixtureHtml, fixtureNames } from "./helpers/schema_fixtures.ts";
import { schemaService } from "../lib/features/schema/service.ts";

/** Serves tests/fixtures/schema/<name>.html at /<name>, plus a few special paths. */
function startSchemaSite() {
  const names = new Set(fixtureNames());
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/moved") return Response.redirect("http://schema.test/jsonld_product_valid", 301);
    if (path === "/data.json") {
      return Response.json({ "@type": "Product" });
    }
    const name = path.slice(1);
    if (!names.has(name)) return new Response("not found", { status: 404 });
    return new Response(fixtureHtml(name), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  const port = server.addr.port;
  return {
    config: loadConfig({
      SCAN_RESOLVE: `schema.test=127.0.0.1:${port}`,
      SCAN_TIMEOUT_MS: "5000",
      REQUEST_TIMEOUT_MS: "2000",
    }),
    close: () => server.shutdown(),
  };
}

Deno.test("[schema scan] a page fetched through the guarded fetcher gives a complete record", async () => {
  const site = startSchemaSite();
  try {
    const now = () => new Date("2026-11-21T10:00:00Z");
    const { record, failure } = await scanPage("http://schema.test/moved", {
      config: site.config,
      now,
    });
    assert.equal(failure, null);
    SchemaScanRecordSchema.parse(record);
    assert.equal(record.domain, "schema.test");
    assert.equal(record.url, "http://schema.test/moved");
    assert.equal(record.status, "ok");
    assert.equal(record.scannedAt, "2026-11-21T10:00:00.000Z");
    const r = record.result!;
    assert.equal(r.page.finalUrl, "http://schema.test/jsonld_product_valid");
    assert.equal(r.page.redirects, 1);
    assert.deepEqual(r.summary.types, ["Product"]);
    assert.equal(r.summary.errors, 0);
    assert.match(r.generated.script, /"@type": "Product"/);
  } finally {
    await site.close();
  }
});

Deno.test("[schema scan] pages that cannot be read give a failed record, never a throw", async (t) => {
  const site = startSchemaSite();
  const env = await startScanEnv();
  try {
    const cases: [string, RegExp, typeof site.config][] = [
      ["http://schema.test/missing", /HTTP 404/, site.config],
      ["http://schema.test/data.json", /not HTML/, site.config],
      ["https://down.test/", /HTTP 503/, env.config],
      ["https://redirect-private.test/", /could not be fetched/, env.config],
      ["https://redirect-loop.test/", /could not be fetched/, env.config],
    ];
    for (const [url, reason, config] of cases) {
      await t.step(url, async () => {
        const { record, failure } = await scanPage(url, { config });
        SchemaScanRecordSchema.parse(record);
        assert.equal(record.status, "failed");
        assert.equal(record.result, null);
        assert.equal(record.url, url);
        assert.match(failure ?? "", reason);
      });
    }
  } finally {
    await env.close();
    await site.close();
  }
});

Deno.test("[schema scan] the shared fixture site: its existing graph validated and completed", async () => {
  const env = await startScanEnv();
  try {
    const { record } = await scanPage("https://good.test/", { config: env.config });
    const r = record.result!;
    assert.ok(r.detected.jsonLd.length >= 4);
    assert.equal(r.summary.errors, 0);
    assert.ok(r.deprecated.some((d) => d.feature === "FAQ rich results"));
    const ids = r.generated.nodes.map((n) => n.id);
    assert.ok(ids.includes("https://good.test/#organization"));
    assert.equal(r.generated.nodes.filter((n) => n.type === "Organization").length, 1);
  } finally {
    await env.close();
  }
});

Deno.test("[schema scan] the service keeps the page's path and serves the cache only for that page", () => {
  const target = normaliseTarget("HTTPS://WWW.Shop.example/p/1?color=red#reviews");
  assert.equal(target.domain, "shop.example");
  assert.equal(target.pageUrl, "https://www.shop.example/p/1?color=red");
  const record = {
    domain: "shop.example",
    url: "https://www.shop.example/p/1?color=red",
    status: "failed" as const,
    scannedAt: "2026-11-21T10:00:00.000Z",
    result: null,
  };
  assert.equal(schemaService.servesCached!(record, target), true);
  assert.equal(schemaService.servesCached!(record, normaliseTarget("www.shop.example/p/2")), false);
});

Deno.test("[schema scan] SERVICE=schema: a usk_ key scans by API, the worker stores, the report serves", async () => {
  const env = await startAppEnv({ worker: true, env: { SERVICE: "schema" } });
  try {
    assert.equal(env.service.name, "schema");
    const { key } = await env.newKey();
    assert.match(key, /^usk_/);
    const auth = `Bearer ${key}`;
    const res = await env.scan({ url: "https://good.test/about" }, { auth });
    assert.equal(res.status, 202);
    const accepted = await res.json();
    assert.equal(accepted.domain, "good.test");
    assert.equal(accepted.statusUrl, `/api/scans/${accepted.scanId}`);
    let report: Response | null = null;
    for (const until = Date.now() + 15_000; Date.now() < until;) {
      report = await env.report("good.test");
      if (report.status === 200) break;
      await report.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(report?.status, 200);
    const record = SchemaScanRecordSchema.parse(await report!.json());
    assert.equal(record.status, "ok");
    assert.equal(record.url, "https://good.test/about");
    assert.equal(record.result!.page.finalUrl, "https://good.test/about");
    const again = await env.scan({ url: "https://good.test/about" }, { auth });
    assert.equal(again.status, 200, "the same page is a cache hit");
    assert.equal(SchemaScanRecordSchema.parse(await again.json()).url, record.url);
    const other = await env.scan({ url: "https://good.test/contact" }, { auth });
    assert.equal(other.status, 202, "another page of the domain is scanned, not served stale");
    await other.body?.cancel();
    const wrongKey = await env.scan({ url: "good.test" }, {
      auth: `Bearer ${key.replace("usk_", "uvk_")}`,
    });
    assert.equal(wrongKey.status, 401, "a visibility key does not open the schema service");
    await wrongKey.body?.cancel();
    await env.worker!.idle();
  } finally {
    await env.close();
  }
});
