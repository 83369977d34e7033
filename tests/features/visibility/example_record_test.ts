/**
 * The home page shows its example report (lib/features/visibility/views/example_record.json, a
 * scan of the fixture no-llms.test that `deno task facts` writes; tests/facts_test.ts holds it to
 * a fresh scan), labelled, with links to the sister service and the code.
 */
import assert from "node:assert/strict";
import { EXAMPLE_HOST } from "../../helpers/example_scan.ts";
import { ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { EXAMPLE_RECORD } from "../../../lib/features/visibility/views/example_report.tsx";
import { startAppEnv } from "../../helpers/app_env.ts";

Deno.test("[example] the example record is a valid ScanRecord of its fixture site", () => {
  assert.ok(ScanRecordSchema.safeParse(EXAMPLE_RECORD).success, "a valid ScanRecord");
  assert.equal(EXAMPLE_RECORD.domain, EXAMPLE_HOST);
});

Deno.test("[example] GET / shows the example report, labelled, with links to the sister service and the code", async () => {
  const env = await startAppEnv({ env: { SOURCE_URL: "https://code.example.org/checker" } });
  try {
    const res = await env.app.request("/");
    assert.equal(res.status, 200);
    const html = await res.text();
    const r = EXAMPLE_RECORD.result!;
    assert.match(html, /id="example-title"/);
    assert.match(html, /Example/);
    assert.match(html, new RegExp(`${r.score} / 100`));
    assert.ok(html.includes(r.topIssues[0].title.replace(/&/g, "&amp;")), "its first fix");
    assert.match(html, /href="https:\/\/code\.example\.org\/checker"/);
    assert.match(html, /href="http:\/\/localhost:8001\/"[^>]*>[^<]*Schema Markup Generator/);
  } finally {
    await env.close();
  }
});
