/** `deno task scan --format md|html|json --out FILE`: the CLI writes the export a pipeline keeps. */
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { runCli, startScanEnv } from "./helpers/scan_env.ts";
import { assertSelfContained } from "./helpers/export_checks.ts";

Deno.test("[cli] --format and --out write the Markdown, HTML and JSON exports", async (t) => {
  const env = await startScanEnv();
  const dir = await Deno.makeTempDir();
  try {
    await t.step(
      "--format md --out FILE writes Markdown and prints the readable report",
      async () => {
        const file = `${dir}/report.md`;
        const r = await runCli(["blocks-search.test", "--format", "md", "--out", file], env.env);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, new RegExp(`Wrote the md report to ${file}`));
        assert.match(r.stdout, /Score \d+\/100\s+Grade F/, "the log still shows the report");
        const text = await Deno.readTextFile(file);
        assert.match(text, /^# AI visibility report: blocks-search\.test\n/);
        const tokens = new MarkdownIt().parse(text, {});
        assert.ok(tokens.some((t) => t.type === "table_open"), "tables");
        assert.ok(
          tokens.some((t) => t.type === "fence" && /User-agent: OAI-SearchBot/.test(t.content)),
        );
      },
    );

    await t.step("--out FILE.html takes the format from the extension", async () => {
      const file = `${dir}/report.html`;
      const r = await runCli(["good.test", "--out", file], env.env);
      assert.equal(r.code, 0, r.stderr);
      assertSelfContained(await Deno.readTextFile(file), "CLI HTML");
    });

    await t.step("--format json prints the record; --json stays an alias", async () => {
      const a = await runCli(["good.test", "--format", "json"], env.env);
      assert.equal(a.code, 0, a.stderr);
      const b = await runCli(["good.test", "--json"], env.env);
      const ra = ScanRecordSchema.parse(JSON.parse(a.stdout));
      const rb = ScanRecordSchema.parse(JSON.parse(b.stdout));
      assert.equal(ra.domain, "good.test");
      assert.equal(rb.domain, "good.test");
      const file = `${dir}/r.json`;
      const c = await runCli(["good.test", "--json", "--out", file], env.env);
      assert.equal(c.code, 0, c.stderr);
      assert.equal(ScanRecordSchema.parse(JSON.parse(await Deno.readTextFile(file))).status, "ok");
    });

    await t.step("--out repeated: one scan, each file in its extension's format", async () => {
      const r = await runCli(
        ["good.test", "--out", `${dir}/a.md`, "--out", `${dir}/a.html`, "--out", `${dir}/a.json`],
        env.env,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(await Deno.readTextFile(`${dir}/a.md`), /^# AI visibility report: good\.test/);
      assertSelfContained(await Deno.readTextFile(`${dir}/a.html`), "CLI HTML (several)");
      const record = ScanRecordSchema.parse(JSON.parse(await Deno.readTextFile(`${dir}/a.json`)));
      assert.equal(record.domain, "good.test");
    });

    await t.step("--fail-under still gates when writing a file", async () => {
      const r = await runCli(
        ["blocks-search.test", "--out", `${dir}/gate.md`, "--fail-under", "50"],
        env.env,
      );
      assert.equal(r.code, 1);
      assert.ok(
        (await Deno.stat(`${dir}/gate.md`)).isFile,
        "the report is written before the gate",
      );
    });

    await t.step("bad usage exits 2 with a reason", async () => {
      const bad = await runCli(["good.test", "--format", "pdf"], env.env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--format takes one of json, md, html/);
      const noExt = await runCli(["good.test", "--out", `${dir}/report.txt`], env.env);
      assert.equal(noExt.code, 2);
      assert.match(noExt.stderr, /add --format json\|md\|html\|sarif, or end the file name in/);
      const clash = await runCli(["good.test", "--json", "--format", "md"], env.env);
      assert.equal(clash.code, 2);
      const unwritable = await runCli(["good.test", "--out", `${dir}/no/such/dir/r.md`], env.env);
      assert.equal(unwritable.code, 2);
      assert.match(unwritable.stderr, /Cannot write/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await env.close();
  }
});
