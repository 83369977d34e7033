/**
 * SARIF 2.1.0 exports (lib/engines/export/sarif.ts): validated against the published SARIF 2.1.0 JSON
 * schema (tests/fixtures/sarif/, as Microsoft's SARIF SDK ships it) with the project's ajv, and
 * checked field by field: each failing or warning check is one result with its rule id, level,
 * message and the URL it concerns; each rule has the learn page's help text. The CLI
 * (`--format sarif`, `--out x.sarif`) and the API (GET /api/report/<domain>.sarif) give the same.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { recordToSarif } from "../lib/engines/export/sarif.ts";
import { SERVICES } from "../lib/app/server.ts";
import { learnEntry } from "../lib/engines/visibility/learn.ts";
import type { ScanRecord } from "../lib/engines/visibility/record.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { analyseFixture } from "./helpers/schema_fixtures.ts";
import { runCli, startScanEnv } from "./helpers/scan_env.ts";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import type { SchemaScanRecord } from "../lib/engines/structured/record.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SCHEMA = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/sarif/sarif-2.1.0.json", import.meta.url)),
);
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const validate = ajv.compile(SCHEMA);

// deno-lint-ignore no-explicit-any
type Sarif = any;

function assertValid(text: string): Sarif {
  const log = JSON.parse(text);
  const ok = validate(log);
  assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  return log;
}

const EXAMPLE = JSON.parse(
  await Deno.readTextFile(
    new URL("../lib/features/visibility/views/example_record.json", import.meta.url),
  ),
) as ScanRecord;

Deno.test("sarif - the schema check is real: it refuses a log without runs and a bad level", () => {
  assert.equal(validate({ version: "2.1.0" }), false);
  const log = JSON.parse(
    recordToSarif({ service: SERVICES.visibility, record: EXAMPLE, failure: null }),
  );
  log.runs[0].results[0].level = "fatal";
  assert.equal(validate(log), false);
});

Deno.test("sarif - a visibility record: one result per failing or warning check, each with its rule's learn text", () => {
  const log = assertValid(recordToSarif(
    { service: SERVICES.visibility, record: EXAMPLE, failure: null },
    { learnBase: "https://checker.example.org/report/x", pathPrefix: "public/" },
  ));
  assert.equal(log.version, "2.1.0");
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, "AI Visibility Checker");
  const issues = EXAMPLE.result!.pillars.flatMap((p) =>
    p.signals.filter((s) => s.status === "fail" || s.status === "warn")
  );
  assert.ok(issues.length > 3, "the example has issues to report");
  assert.equal(run.results.length, issues.length);
  for (const [i, s] of issues.entries()) {
    const r = run.results[i];
    assert.equal(r.ruleId, s.id);
    // The level follows the impact the report gives the check: critical and high fail a gate,
    // medium warns, low (or a check no fix addresses) is a note.
    const impact = EXAMPLE.result!.topIssues.find((x) =>
      x.id === s.id || (x.resolves ?? []).some((c) => c.id === s.id)
    )?.impact;
    const expected = impact === "critical" || impact === "high"
      ? "error"
      : impact === "medium"
      ? "warning"
      : "note";
    assert.equal(r.level, expected, `${s.id} (${impact ?? "no issue"})`);
    assert.equal(r.properties.impact, impact ?? "none");
    assert.ok(r.message.text.startsWith(s.detail.slice(0, 40)), s.id);
    const rule = run.tool.driver.rules[r.ruleIndex];
    assert.equal(rule.id, s.id);
    const entry = learnEntry(s.id)!;
    assert.ok(rule.help.text.startsWith(entry.what), `${s.id}: the learn page's text`);
    assert.ok(rule.help.text.includes(entry.why));
    assert.equal(rule.helpUri, `https://checker.example.org/learn/${s.id}`);
    assert.equal(rule.shortDescription.text, s.title);
    const loc = r.locations[0].physicalLocation;
    assert.match(loc.artifactLocation.uri, /^public\/[^/]/);
    assert.equal(loc.artifactLocation.uriBaseId, "%SRCROOT%");
    assert.ok(loc.region.startLine >= 1);
    assert.match(r.properties.url, /^https:\/\/no-llms\.test\//);
    assert.match(r.partialFingerprints.primaryLocationLineHash, /^[0-9a-f]{16}:1$/);
  }
  assert.equal(
    new Set(run.tool.driver.rules.map((r: { id: string }) => r.id)).size,
    run.tool.driver.rules.length,
  );
  assert.equal(run.properties.score, EXAMPLE.result!.score);
  // The example holds checks of each kind, so every level is exercised.
  const levels = new Set(run.results.map((r: { level: string }) => r.level));
  for (const l of ["error", "warning", "note"]) assert.ok(levels.has(l), `a ${l} result`);
});

Deno.test("sarif - a missing sameAs (medium impact) warns, never fails a CI gate (issue 42)", () => {
  const record = structuredClone(EXAMPLE);
  const result = record.result!;
  // One check, one issue of medium impact: its result is a warning; made high, an error.
  const signal = result.pillars.flatMap((p) => p.signals).find((s) =>
    s.id === "structured.same_as"
  )!;
  signal.status = "fail";
  result.topIssues = [{
    id: signal.id,
    title: "List your official profiles in sameAs",
    status: "fail",
    impact: "medium",
    detail: signal.detail,
    fix: { what: "List your official profiles in sameAs", why: "w", how: "h", effort: "S" },
    resolves: [{ id: signal.id, title: signal.title }],
  }];
  const level = () =>
    assertValid(recordToSarif({ service: SERVICES.visibility, record, failure: null })).runs[0]
      .results.find((r: { ruleId: string }) => r.ruleId === signal.id).level;
  assert.equal(level(), "warning");
  result.topIssues[0].impact = "high";
  assert.equal(level(), "error");
  result.topIssues[0].impact = "low";
  assert.equal(level(), "note");
});

Deno.test("sarif - a robots.txt block points at robots.txt, on the line that blocks", async () => {
  const scanEnv = await startScanEnv();
  try {
    const { record } = await scanSite("blocks-search.test", {
      config: scanEnv.config,
      offSiteCache: scanEnv.cache(),
    });
    const log = assertValid(recordToSarif({ service: SERVICES.visibility, record, failure: null }));
    const r = log.runs[0].results.find((x: { ruleId: string }) =>
      x.ruleId === "access.search_crawlers"
    );
    assert.ok(r, "the search-crawler block is a result");
    assert.equal(r.level, "error");
    const loc = r.locations[0].physicalLocation;
    assert.equal(loc.artifactLocation.uri, "robots.txt");
    const robots = await Deno.readTextFile(
      new URL("./fixtures/sites/blocks-search.test/robots.txt", import.meta.url),
    );
    assert.match(robots.split("\n")[loc.region.startLine - 1], /Disallow: \//);
  } finally {
    await scanEnv.close();
  }
});

Deno.test("sarif - a schema record: each error and warning finding is a result with its path", () => {
  const result = analyseFixture("jsonld_article_invalid");
  const record: SchemaScanRecord = {
    domain: "schema.test",
    url: "https://schema.test/blog/post?id=1",
    status: "ok",
    scannedAt: "2026-11-26T10:00:00.000Z",
    result,
  };
  assert.ok(result.findings.length > 0);
  const log = assertValid(recordToSarif({ service: SERVICES.schema, record, failure: null }));
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, "Schema Markup Generator");
  assert.equal(run.results.length, result.findings.length);
  for (const [i, f] of result.findings.entries()) {
    const r = run.results[i];
    assert.equal(r.ruleId, f.rule);
    assert.equal(r.level, f.severity === "error" ? "error" : "warning");
    assert.ok(r.message.text.startsWith(`${f.path}: ${f.message}`));
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, "blog/post");
    assert.equal(r.locations[0].logicalLocations[0].fullyQualifiedName, f.path);
    const rule = run.tool.driver.rules[r.ruleIndex];
    assert.ok(rule.help.text.length > 40 && rule.helpUri, f.rule);
  }
});

Deno.test("sarif - a failed scan is a run that says so, with no result", () => {
  const record = {
    domain: "down.test",
    status: "failed",
    scannedAt: "2026-11-26T10:00:00.000Z",
    result: null,
    offSite: null,
  } as const;
  const log = assertValid(
    recordToSarif({ service: SERVICES.visibility, record, failure: "HTTP 503" }),
  );
  const inv = log.runs[0].invocations[0];
  assert.equal(inv.executionSuccessful, false);
  assert.match(inv.toolExecutionNotifications[0].message.text, /HTTP 503/);
  assert.deepEqual(log.runs[0].results, []);
});

Deno.test("sarif - the CLI's --format sarif and --out x.sarif, and GET /api/report/<domain>.sarif", async () => {
  const scanEnv = await startScanEnv();
  const dir = await Deno.makeTempDir();
  try {
    const cli = await runCli(["blocks-search.test", "--format", "sarif"], scanEnv.env);
    assert.equal(cli.code, 0, cli.stderr);
    const log = assertValid(cli.stdout);
    assert.ok(
      log.runs[0].results.some((r: { ruleId: string }) => r.ruleId === "access.search_crawlers"),
    );
    const out = await runCli(
      ["blocks-search.test", "--out", `${dir}/r.sarif`, "--sarif-path-prefix", "site/"],
      scanEnv.env,
    );
    assert.equal(out.code, 0, out.stderr);
    const file = assertValid(await Deno.readTextFile(`${dir}/r.sarif`));
    assert.ok(
      file.runs[0].results.every((r: Sarif) =>
        r.locations[0].physicalLocation.artifactLocation.uri.startsWith("site/")
      ),
    );
  } finally {
    await scanEnv.close();
    await Deno.remove(dir, { recursive: true });
  }
  const env = await startAppEnv({ worker: true });
  try {
    const res = await env.scan({ url: "blocks-search.test" }, { auth: `Bearer ${PIPELINE}` });
    await res.body?.cancel();
    for (let i = 0; i < 200 && !(await env.store.getScan("blocks-search.test")); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const sarif = await env.app.request("/api/report/blocks-search.test.sarif");
    assert.equal(sarif.status, 200);
    assert.equal(sarif.headers.get("content-type"), "application/sarif+json");
    assert.match(sarif.headers.get("content-disposition")!, /\.sarif"$/);
    const log = assertValid(await sarif.text());
    const rule = log.runs[0].tool.driver.rules[0];
    assert.match(rule.helpUri, /^http:\/\/localhost\/learn\//);
    assert.equal((await env.app.request("/api/report/never.example.sarif")).status, 404);
  } finally {
    await env.close();
  }
});
