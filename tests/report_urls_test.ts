/** The report's paths, written once (lib/kit/report_urls.ts), are the ones the app serves. */
import assert from "node:assert/strict";
import { badgePath, reportJsonPath, reportPagePath } from "../lib/kit/report_urls.ts";
import { startAppEnv } from "./helpers/app_env.ts";

Deno.test("report urls - the page, JSON and badge paths of a domain", () => {
  assert.equal(reportPagePath("example.com"), "/report/example.com");
  assert.equal(reportJsonPath("example.com"), "/api/report/example.com.json");
  assert.equal(badgePath("xn--bcher-kva.example"), "/badge/xn--bcher-kva.example.svg");
  // Anything not in a domain's normal spelling cannot break out of its path segment.
  assert.equal(reportPagePath("a/../b?c#d"), "/report/a%2F..%2Fb%3Fc%23d");
});

Deno.test("report urls - a 202 from POST /api/scan points at the JSON path the API serves", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.scan({ url: "https://example.com/" }, {
      auth: "Bearer " + (await env.newKey()).key,
    });
    assert.equal(res.status, 202);
    await res.body?.cancel();
    assert.equal(res.headers.get("location"), reportJsonPath("example.com"));
    const page = await env.app.request("/report/Example.com");
    assert.equal(page.headers.get("location"), reportPagePath("example.com"));
    await page.body?.cancel();
  } finally {
    await env.close();
  }
});
