/** `deno task scan` as a pipeline uses it: exit codes, --json, --fail-under, the readable report. */
import assert from "node:assert/strict";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { runCli, startScanEnv } from "./helpers/scan_env.ts";

Deno.test("[cli] scan prints a report, JSON on request, and gates CI with --fail-under", async (t) => {
  const env = await startScanEnv();
  try {
    await t.step("--json prints a ScanRecord that matches the API contract", async () => {
      const r = await runCli(["good.test", "--json"], env.env);
      assert.equal(r.code, 0, r.stderr);
      const record = ScanRecordSchema.parse(JSON.parse(r.stdout));
      assert.equal(record.domain, "good.test");
      assert.equal(record.status, "ok");
      assert.match(r.stderr, /fetching https:\/\/good\.test\//, "progress goes to stderr");
    });

    await t.step("the readable report shows score, grade, pillars, issues and fixes", async () => {
      const r = await runCli(["blocks-search.test"], env.env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Score \d+\/100\s+Grade F/);
      assert.match(r.stdout, /AI crawler access/);
      assert.match(r.stdout, /Top issues \(\d+\)/);
      // One fix per cause (issue 32): the robots.txt fix names how many crawlers it lets in, and
      // its first line names the blocked ones.
      assert.match(r.stdout, /1\. \[critical\] Allow \d+ AI crawlers in robots\.txt/);
      assert.match(r.stdout, /turned away: OAI-SearchBot \(robots\.txt\)/);
      assert.match(r.stdout, /User-agent: OAI-SearchBot/);
      assert.match(r.stdout, /Presence beyond the site/);
    });

    await t.step("--fail-under exits 1 below the threshold and 0 above it", async () => {
      const low = await runCli(["blocks-search.test", "--fail-under", "50"], env.env);
      assert.equal(low.code, 1);
      assert.match(low.stderr, /below --fail-under 50/);
      const high = await runCli(["good.test", "--fail-under", "80"], env.env);
      assert.equal(high.code, 0, high.stderr);
    });

    await t.step("a failed scan fails the pipeline", async () => {
      const r = await runCli(["down.test", "--fail-under", "1"], env.env);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /Scan failed: the home page answered HTTP 503/);
    });

    await t.step("bad usage exits 2 with a reason", async () => {
      assert.equal((await runCli([], env.env)).code, 2);
      const bad = await runCli(["ftp://x.example"], env.env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /only http and https/);
      const badNumber = await runCli(["good.test", "--fail-under", "abc"], env.env);
      assert.equal(badNumber.code, 2);
    });
  } finally {
    await env.close();
  }
});
