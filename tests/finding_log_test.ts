/**
 * Findings are grouped per kind where they are collected (lib/engines/structured/finding_log.ts): a
 * page with 100,000 empty JSON-LD objects lists 50 of each kind with a count of the rest, the
 * summary still counts every finding, and the record stays small (issue 26: 28 MB before).
 */
import assert from "node:assert/strict";
import {
  countFindings,
  FindingLog,
  FINDINGS_PER_KIND,
  MAX_FINDING_TEXT,
  MAX_FINDINGS,
} from "../lib/engines/structured/finding_log.ts";
import type { Finding } from "../lib/engines/structured/record.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { validateCode } from "../lib/features/validate/validate_code.ts";

function finding(i: number, over: Partial<Finding> = {}): Finding {
  return {
    severity: "error",
    source: "json-ld",
    itemIndex: null,
    path: `script[1][${i}]`,
    type: null,
    property: "@context",
    message: `missing @context ${i}`,
    rule: "json-ld",
    ...over,
  };
}

Deno.test("[findings] one kind: the first ones listed, the last listed counts the rest", () => {
  const log = new FindingLog();
  for (let i = 0; i < 100_000; i++) log.add(finding(i));
  const list = log.list();
  assert.equal(list.length, FINDINGS_PER_KIND);
  assert.equal(list[0].path, "script[1][0]");
  assert.equal(list.at(-1)!.more, 100_000 - FINDINGS_PER_KIND);
  assert.equal(list.slice(0, -1).some((f) => f.more), false);
  assert.deepEqual(countFindings(list), { errors: 100_000, warnings: 0 });
});

Deno.test("[findings] many kinds: at most MAX_FINDINGS listed, every finding counted", () => {
  const log = new FindingLog();
  let warnings = 0;
  for (let i = 0; i < 20_000; i++) {
    // An unknown property per node: a kind per name, as a hostile page can make them.
    const severity = i % 3 ? "warning" : "error";
    if (severity === "warning") warnings++;
    log.add(finding(i, { severity, property: `prop${i}`, rule: "schema.org" }));
  }
  const list = log.list();
  assert.ok(list.length <= MAX_FINDINGS, `${list.length}`);
  assert.deepEqual(countFindings(list), { errors: 20_000 - warnings, warnings });
  const closing = list.filter((f) => /not listed/.test(f.message));
  assert.equal(closing.length, 2, "one closing finding per severity says what is not listed");
});

Deno.test("[findings] texts quoted from the page are cut", () => {
  const log = new FindingLog();
  log.add(finding(0, { message: "x".repeat(100_000), path: "p".repeat(50_000) }));
  const [f] = log.list();
  assert.ok(f.message.length <= MAX_FINDING_TEXT + 1);
  assert.ok(f.path.length <= MAX_FINDING_TEXT + 1);
});

Deno.test("[findings] the 100,000-empty-objects page: a small record whose summary counts all", () => {
  const html =
    `<!doctype html><html><head><title>Empty</title><script type="application/ld+json">[${
      Array(100_000).fill("{}").join(",")
    }]</script></head><body></body></html>`;
  const page = {
    requestedUrl: "https://empty.test/",
    finalUrl: "https://empty.test/",
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  };
  const r = analysePage(html, page, "empty.test");
  const bytes = JSON.stringify(r).length;
  assert.ok(bytes < 200_000, `${bytes} bytes (28 MB before)`);
  assert.ok(r.findings.length <= 2 * MAX_FINDINGS);
  // 100,000 roots without @context, and each of the 300 items read has no @type.
  assert.equal(r.summary.errors, 100_000 + r.detected.jsonLd.length);
  assert.equal(countFindings(r.findings).errors, r.summary.errors);
  const context = r.findings.filter((f) => f.property === "@context");
  assert.equal(context.length, FINDINGS_PER_KIND);
  assert.equal(context.at(-1)!.more, 100_000 - FINDINGS_PER_KIND);
  // Validate code gives the same bounded answer.
  const v = validateCode({ html });
  assert.equal(v.summary.errors, r.summary.errors);
});
