/** `deno task scan --baseline FILE`: the regression exit code a CI pipeline relies on. */
import assert from "node:assert/strict";
import { runCli, startScanEnv } from "../../helpers/scan_env.ts";

Deno.test("[cli] --baseline exits 1 on a regression and 0 without one", async (t) => {
  const env = await startScanEnv();
  const dir = await Deno.makeTempDir();
  try {
    const good = `${dir}/good.json`;
    const saved = await runCli(["good.test", "--json"], env.env);
    assert.equal(saved.code, 0, saved.stderr);
    await Deno.writeTextFile(good, saved.stdout);

    await t.step("the same site again: no regression, exit 0", async () => {
      const r = await runCli(["good.test", "--json", "--baseline", good], env.env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /No regression against the baseline/);
      JSON.parse(r.stdout); // stdout stays one record
    });

    await t.step(
      "search crawlers blocked: a lower score and a new critical issue, exit 1",
      async () => {
        const r = await runCli(["blocks-search.test", "--baseline", good], env.env);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /The score went down from \d+ to \d+/);
        assert.match(
          r.stderr,
          /Regression: the score dropped by [\d.]+ points; new critical issue/,
        );
      },
    );

    await t.step("an improvement against a worse baseline passes", async () => {
      const worse = `${dir}/worse.json`;
      const w = await runCli(["blocks-search.test", "--json"], env.env);
      await Deno.writeTextFile(worse, w.stdout);
      const r = await runCli(["good.test", "--baseline", worse], env.env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /Fixed \(\d+\)/);
    });

    await t.step(
      "a baseline that is missing or not a record is a usage error, exit 2",
      async () => {
        const missing = await runCli(["good.test", "--baseline", `${dir}/nope.json`], env.env);
        assert.equal(missing.code, 2);
        assert.match(missing.stderr, /Cannot read the baseline/);
        await Deno.writeTextFile(`${dir}/bad.json`, '{"hello":1}');
        const bad = await runCli(["good.test", "--baseline", `${dir}/bad.json`], env.env);
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /is not a scan record/);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
    await env.close();
  }
});
