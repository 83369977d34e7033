/**
 * The scan forms offer rendering where the server can render: a checkbox on both services' home
 * pages, inside the plain GET form (so the form still works without JavaScript: its GET carries
 * the box and opens the stored report), shown only when a browser is available (a remote one, or a
 * local Chromium the memory plan lets run). What the island sends when it is ticked is checked in
 * a real browser (tests/e2e/web_browser_test.ts).
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { startAppEnv } from "./helpers/app_env.ts";
import { schemaService } from "../lib/features/schema/service.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { extractPage } from "../lib/engines/structured/extract.ts";
import type { SchemaScanRecord } from "../lib/engines/structured/record.ts";
import { scanJob, withUrl } from "./helpers/records.ts";

/** The home page's scan form, parsed. */
async function homeForm(env: Awaited<ReturnType<typeof startAppEnv>>) {
  const res = await env.app.request("/");
  assert.equal(res.status, 200);
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  return doc.querySelector('form[action="/report"]')!;
}

for (const service of [visibilityService, schemaService]) {
  Deno.test(`render form (${service.name}) - a checkbox where the server can render, none where it cannot`, async () => {
    const remote = await startAppEnv({
      service,
      env: { MEMORY_MB: "512", RENDER_BROWSER_URL: "ws://127.0.0.1:9/" },
    });
    try {
      const form = await homeForm(remote);
      assert.equal(form.getAttribute("method"), "get");
      const box = form.querySelector('input[type="checkbox"][name="render"]');
      assert.ok(box, "the checkbox is inside the plain GET form");
      assert.equal(box.getAttribute("value"), "1");
      assert.equal(box.closest("label")?.textContent?.trim(), service.words.form.render);
      // Without JavaScript the form's GET carries it and still opens the report page.
      const get = await remote.app.request("/report?url=example.com&render=1");
      assert.ok(get.status < 400, `GET /report with the box: ${get.status}`);
      await get.body?.cancel();
    } finally {
      await remote.close();
    }
    // 512 MB and no remote browser: local rendering does not fit, so nothing is offered.
    const small = await startAppEnv({ service, env: { MEMORY_MB: "512" } });
    try {
      const form = await homeForm(small);
      assert.equal(form.querySelector('input[name="render"]'), null);
    } finally {
      await small.close();
    }
  });
}

Deno.test("render form - the schema service's box starts ticked (it renders by default); 'Scan again' keeps or offers the choice", async () => {
  const vis = await startAppEnv({
    service: visibilityService,
    env: { RENDER_BROWSER_URL: "ws://127.0.0.1:9/" },
  });
  try {
    const box = (await homeForm(vis)).querySelector('input[name="render"]')!;
    assert.equal(box.hasAttribute("checked"), false, "the visibility checker renders when asked");
  } finally {
    await vis.close();
  }
  const env = await startAppEnv({
    service: schemaService,
    env: { SERVICE: "schema", RENDER_BROWSER_URL: "ws://127.0.0.1:9/" },
  });
  try {
    const box = (await homeForm(env)).querySelector('input[name="render"]')!;
    assert.equal(
      box.hasAttribute("checked"),
      true,
      "ticked: the schema service renders by default",
    );
    const html = "<html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>";
    const page = (url: string) => ({
      requestedUrl: url,
      finalUrl: url,
      status: 200,
      contentType: "text/html",
      redirects: 0,
      bytes: html.length,
      truncated: false,
      fetchMs: 1,
    });
    const store = async (url: string, rendered: boolean) => {
      const domain = new URL(url).hostname;
      const render = {
        status: "rendered" as const,
        reason: null,
        browser: "Chromium",
        extraction: extractPage(html, url, domain),
      };
      const record: SchemaScanRecord = {
        domain,
        url,
        status: "ok",
        scannedAt: new Date(env.clock.now - 60_000).toISOString(),
        result: analysePage(html, page(url), domain, rendered ? { render } : {}),
      };
      await env.store.finishScan(
        withUrl(scanJob(domain, crypto.randomUUID(), env.clock.now - 60_000), url),
        { record, failure: null, credential: "pipeline", durationMs: 1, jobId: "x" },
      );
    };
    const rescanBox = async (domain: string) => {
      const res = await env.app.request(`/report/${domain}`);
      assert.equal(res.status, 200);
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const form = doc.querySelector("form.rescan-form")!;
      assert.ok(form, "the report has its Scan again form");
      return form.querySelector('input[name="render"]');
    };
    await store("https://rendered.test/p", true);
    assert.equal((await rescanBox("rendered.test"))?.hasAttribute("checked"), true, "kept");
    await store("https://plain.test/p", false);
    const offered = await rescanBox("plain.test");
    assert.ok(offered, "offered");
    assert.equal(offered.hasAttribute("checked"), false);
  } finally {
    await env.close();
  }
});
