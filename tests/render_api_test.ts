/**
 * The rendered view's API seams (the request field is additive to ../shared/api/*.md): `render`
 * must be a boolean (a JSON 400 otherwise), a fresh record without the view does not answer a
 * request for it (a new scan is admitted), a request without `render` is still served from cache,
 * and the MCP tools take the same argument. A rendered scan through the real server, end to end:
 * tests/render_security_test.ts.
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import type { ScanRecord } from "../lib/engines/visibility/record.ts";
import { scanJob, withUrl } from "./helpers/records.ts";
import type { SchemaScanRecord } from "../lib/engines/structured/record.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { extractPage } from "../lib/engines/structured/extract.ts";
import type { RenderAttempt } from "../lib/engines/structured/page_view.ts";

const auth = { auth: `Bearer ${PIPELINE}` };

function record(domain: string, scannedAt: number, render?: ScanRecord["render"]): ScanRecord {
  return {
    domain,
    status: "ok",
    scannedAt: new Date(scannedAt).toISOString(),
    result: { score: 70, grade: "C", label: "Fair", pillars: [], topIssues: [] },
    offSite: null,
    ...(render ? { render } : {}),
  };
}

Deno.test("POST /api/scan render - a boolean, and a cached record without the view does not answer it", async () => {
  const env = await startAppEnv();
  try {
    const bad = await env.scan({ url: "cached.example", render: "yes" }, auth);
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /render must be true or false/);
    const store = (r: ScanRecord) =>
      env.store.finishScan(scanJob(r.domain, crypto.randomUUID(), Date.parse(r.scannedAt)), {
        record: r,
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: "x",
      });
    await store(record("cached.test", env.clock.now - 60_000));
    // Without render: the fresh record answers (200, nothing consumed).
    const plain = await env.scan({ url: "cached.test" }, auth);
    assert.equal(plain.status, 200);
    await plain.body?.cancel();
    // With render: the record has no view, so a scan is admitted.
    const rendered = await env.scan({ url: "cached.test", render: true }, auth);
    assert.equal(rendered.status, 202, await rendered.clone().text());
    await rendered.body?.cancel();
    // A record that carries the view (even "unavailable": it says why) answers both.
    await store(record("viewed.test", env.clock.now - 60_000, {
      status: "unavailable",
      reason: "no browser",
      browser: null,
      budgetMs: 20_000,
      elapsedMs: 0,
      pages: [],
      crawlers: [],
    }));
    const viewed = await env.scan({ url: "viewed.test", render: true }, auth);
    assert.equal(viewed.status, 200);
    assert.equal((await viewed.json()).render.status, "unavailable");
  } finally {
    await env.close();
  }
});

Deno.test("MCP scan_site takes render as an optional boolean", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.app.request("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": "198.51.100.9",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const body = await res.json();
    const tool = body.result.tools.find((t: { name: string }) => t.name === "scan_site");
    assert.equal(tool.inputSchema.properties.render.type, "boolean");
    assert.ok(!tool.inputSchema.required?.includes("render"));
  } finally {
    await env.close();
  }
});

/** A stored schema record of `url`, rendered (it carries the render's outcome) or not. */
function schemaRecord(url: string, scannedAt: number, rendered: boolean): SchemaScanRecord {
  const html = "<html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>";
  const page = {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  };
  const render: RenderAttempt = {
    status: "rendered",
    reason: null,
    browser: "Chromium",
    extraction: extractPage(html, url, new URL(url).hostname),
  };
  return {
    domain: new URL(url).hostname,
    url,
    status: "ok",
    scannedAt: new Date(scannedAt).toISOString(),
    result: analysePage(html, page, new URL(url).hostname, rendered ? { render } : {}),
  };
}

Deno.test("POST /api/scan (schema) - renders by default where a browser is at hand; render: false opts out, and the cache respects both", async (t) => {
  for (
    const [name, env, renders] of [
      // A remote browser named (nothing connects to it here: no worker runs the scans).
      ["with a browser", { SERVICE: "schema", RENDER_BROWSER_URL: "ws://127.0.0.1:9/" }, true],
      ["without one", { SERVICE: "schema", RENDER_CHROMIUM: "off" }, false],
    ] as const
  ) {
    await t.step(name, async () => {
      const app = await startAppEnv({ env });
      try {
        const store = (r: SchemaScanRecord) =>
          app.store.finishScan(
            withUrl(scanJob(r.domain, crypto.randomUUID(), Date.parse(r.scannedAt)), r.url),
            { record: r, failure: null, credential: "pipeline", durationMs: 1, jobId: "x" },
          );
        const ask = async (body: Record<string, unknown>) => {
          const res = await app.scan(body, auth);
          await res.body?.cancel();
          return res.status;
        };
        // A fresh record of the page's server HTML alone.
        await store(schemaRecord("https://plain.test/p", app.clock.now - 60_000, false));
        // Where the server renders, a request that does not say is a rendering one: not answered
        // by that record. Without a browser it is a server-HTML one: answered.
        assert.equal(await ask({ url: "https://plain.test/p" }), renders ? 202 : 200);
        // Opting out is answered by it either way.
        assert.equal(await ask({ url: "https://plain.test/p", render: false }), 200);
        // A rendered record answers a rendering request, never an opted-out one.
        await store(schemaRecord("https://seen.test/p", app.clock.now - 60_000, true));
        assert.equal(await ask({ url: "https://seen.test/p", render: true }), 200);
        assert.equal(await ask({ url: "https://seen.test/p" }), renders ? 200 : 202);
        assert.equal(
          await ask({ url: "https://seen.test/p", render: false, forceRescan: false }),
          202,
        );
      } finally {
        await app.close();
      }
    });
  }
});
