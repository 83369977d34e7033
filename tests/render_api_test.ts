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
import { scanJob } from "./helpers/records.ts";

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
