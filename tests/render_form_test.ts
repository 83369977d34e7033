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
