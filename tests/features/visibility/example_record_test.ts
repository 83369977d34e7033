/**
 * The home page's example report (lib/features/visibility/views/example_record.json) is what scanning its fixture site
 * produces today, not numbers typed by hand: a change to scoring or fixes that is not followed by
 * `deno run -A --config deno.json tests/tools/example_record.ts` fails here.
 */
import assert from "node:assert/strict";
import { EXAMPLE_HOST, scanFixtureRecord } from "../../helpers/example_scan.ts";
import { ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { EXAMPLE_RECORD } from "../../../lib/features/visibility/views/example_report.tsx";
import { startAppEnv } from "../../helpers/app_env.ts";

Deno.test({
  name: "[example] the home page's example report is a fresh scan of its fixture site",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    assert.ok(ScanRecordSchema.safeParse(EXAMPLE_RECORD).success, "a valid ScanRecord");
    assert.equal(EXAMPLE_RECORD.domain, EXAMPLE_HOST);
    const fresh = await scanFixtureRecord();
    const shape = (r: typeof fresh) => ({
      score: r.result?.score,
      grade: r.result?.grade,
      pillars: r.result?.pillars.map((p) => [p.id, p.score]),
      issues: r.result?.topIssues.map((i) => [i.id, i.impact, i.fix.effort, i.title]),
    });
    assert.deepEqual(shape(EXAMPLE_RECORD), shape(fresh));
  },
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
