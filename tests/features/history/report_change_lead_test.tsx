/**
 * After a rescan the report's first screen leads with what changed (issue 32): how many checks
 * were fixed since the previous scan, the cap that still holds and the score without it, then
 * the top fixes, with the full comparison right below them; the kept scan's page shows the same.
 * Each fix says what it is worth, and under a cap that the cap lifts first. Real records: the
 * fixture sites scanned by the real scanner (tests/fixtures/site_server.ts).
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { startScanEnv } from "../../helpers/scan_env.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { storeRecord } from "../../helpers/records.ts";
import { scanSite } from "../../../lib/engines/visibility/scan.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { diffRecords } from "../../../lib/engines/history/diff.ts";
import { scoreChangeText } from "../../../lib/features/history/views/report_change_lead.tsx";
import { worthText } from "../../../lib/engines/visibility/report_texts.ts";
import { capOf } from "../../../lib/engines/visibility/score.ts";
import { scanPagePath } from "../../../lib/kit/report_urls.ts";

/** Real records of the fixture sites, scanned once for every test of this file. */
async function scans(): Promise<Record<string, ScanRecord>> {
  const env = await startScanEnv();
  try {
    const out: Record<string, ScanRecord> = {};
    for (
      const [host, at] of [
        ["blocks-search.test", "2026-11-21T10:00:00Z"],
        ["good.test", "2026-11-21T15:59:00Z"],
        ["edge-blocks-bots.test", "2026-11-21T16:30:00Z"],
      ] as const
    ) {
      out[host] = (await scanSite(host, {
        config: env.config,
        now: () => new Date(at),
        offSiteCache: env.cache(),
      })).record as ScanRecord;
    }
    return out;
  } finally {
    await env.close();
  }
}

/** `record` as a scan of `domain` (the page reads only the record). */
function as(record: ScanRecord, domain: string): ScanRecord {
  return { ...record, domain };
}

const ids = (doc: { querySelectorAll(s: string): Iterable<{ id: string }> }) =>
  [...doc.querySelectorAll("[id]")].map((e) => e.id);

Deno.test({
  name: "[change lead] after a rescan the first screen leads with the change, on both pages",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const r = await scans();
    const env = await startAppEnv();
    try {
      const before = as(r["blocks-search.test"], "shop.test");
      const after = as(r["good.test"], "shop.test");
      await storeRecord(env, before);
      // Before a second scan there is nothing to compare: no lead.
      let doc = new DOMParser().parseFromString(
        await (await env.app.request("/report/shop.test")).text(),
        "text/html",
      );
      assert.equal(doc.querySelector("#change-lead"), null);
      await storeRecord(env, after);
      const diff = diffRecords(before, after);
      assert.ok(diff.fixed.length > 0);
      for (
        const path of [
          "/report/shop.test",
          scanPagePath("shop.test", (await env.store.history.list("shop.test"))[0].id),
        ]
      ) {
        const res = await env.app.request(path);
        assert.equal(res.status, 200, path);
        doc = new DOMParser().parseFromString(await res.text(), "text/html");
        const headline = doc.querySelector("#change-lead .change-headline")?.textContent ?? "";
        assert.match(
          headline,
          new RegExp(`^${diff.fixed.length} checks? fixed since `),
          `${path}: ${headline}`,
        );
        // The time of the previous scan, for the browser to write in the reader's zone.
        assert.equal(
          doc.querySelector("#change-lead time")?.getAttribute("datetime"),
          before.scannedAt,
        );
        assert.match(
          doc.querySelector("#change-lead .change-score")?.textContent ?? "",
          new RegExp(
            `score moved ${Math.round(before.result!.score)} → ${Math.round(after.result!.score)}`,
          ),
        );
        // The order: the change, the score, the top fixes, then the full comparison.
        const order = ids(doc);
        const at = (id: string) => {
          const i = order.indexOf(id);
          assert.ok(i >= 0, `${path}: #${id}`);
          return i;
        };
        assert.ok(at("change-lead") < at("summary-title"), path);
        assert.ok(at("summary-title") < at("top-fixes"), path);
        assert.ok(at("top-fixes") < at("changes-title"), path);
      }
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "[change lead] a capped score's change is read through the cap; a fix's worth says the cap lifts first",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const r = await scans();
    const edge = r["edge-blocks-bots.test"];
    const good = r["good.test"];
    const cap = capOf(edge.result!)!;
    assert.ok(cap?.binding, "the edge's refusal caps the score");
    // Capped now, not before.
    const worse = scoreChangeText(diffRecords(good, edge))!;
    assert.match(
      worse,
      /^Now capped at \d+ because .+; the score moved \d+ → \d+; without the cap/,
    );
    // Capped before, not now.
    const better = scoreChangeText(diffRecords(edge, good))!;
    assert.match(better, /^No longer capped \(it was capped at \d+ because .+\); the score moved/);
    // Still capped: the cap's own words, then the score without it.
    const still = scoreChangeText(diffRecords(edge, { ...edge, scannedAt: good.scannedAt }))!;
    assert.match(
      still,
      /^Still capped at \d+ because .+; the score stayed at \d+; without the cap it stayed at \d+/,
    );
    // The fix that lifts the cap says the score it leads to (tests/fix_per_cause_test.ts: the
    // other fixes under a cap add their points once it is lifted).
    const lifting = edge.result!.topIssues.find((i) => i.worth?.lifts.includes(cap.gateId));
    assert.ok(lifting, "a fix lifts the cap");
    assert.equal(
      worthText(lifting, edge.result!),
      `Lifts the cap: ${Math.round(edge.result!.score)} → ${lifting.worth!.score}`,
    );
  },
});
