/**
 * Every format read from a fixture log written from its documentation: the format is detected,
 * and every figure (hits per crawler and verdict, statuses, people's lines dropped, the disallowed
 * fetch) equals the scenario's known counts.
 */
import assert from "node:assert/strict";
import { readAccessLog } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { logReport } from "../../../lib/features/logs/report.ts";
import { createCrawlerDns } from "../../../lib/kit/net/crawler_dns.ts";
import type { LogFormatId } from "../../../lib/features/logs/formats.ts";
import {
  DNS,
  EXPECTED,
  OTHER_LINES,
  rangeDir,
  RENDER,
  ROBOTS,
  SCENARIO,
  streamOf,
} from "./log_fixtures.ts";

const dir = await rangeDir();
const ranges = await loadRanges({ directory: dir, snapshot: false });

/** Reads the scenario rendered in `format`. */
export async function readScenario(format: string, override?: LogFormatId) {
  return await readAccessLog(streamOf(RENDER[format](SCENARIO)), {
    ranges,
    dns: createCrawlerDns({ queries: DNS }),
    keys: null,
    format: override,
  });
}

for (const format of Object.keys(RENDER)) {
  Deno.test(`[logs/formats] ${format}: detected, and every figure equals the scenario's`, async () => {
    const { aggregates, summary } = await readScenario(
      format,
      format === "fastly" ? "fastly" : undefined,
    );
    const expectedFormat = format === "fastly" ? "fastly" : format;
    assert.equal(summary.format, expectedFormat);
    if (format !== "fastly") assert.equal(summary.detected, format);
    assert.equal(summary.unreadable, 0, JSON.stringify(summary.unreadableLines));
    // Vercel's fixture also holds a build log entry: a line that names no crawler.
    assert.equal(summary.otherLines, OTHER_LINES + (format === "vercel" ? 1 : 0));
    assert.equal(summary.crawlerLines, SCENARIO.length - OTHER_LINES);
    const report = logReport(aggregates, {
      robotsTxt: ROBOTS,
      importantPages: ["/", "/about", "/contact"],
    });
    for (const [token, want] of Object.entries(EXPECTED)) {
      const f = report.crawlers.find((c) => c.token === token);
      assert.ok(f, `${token} missing`);
      assert.deepEqual(
        { verified: f.hits.verified, spoofed: f.hits.spoofed, unverifiable: f.hits.unverifiable },
        { verified: want.verified, spoofed: want.spoofed, unverifiable: want.unverifiable },
        token,
      );
      const mix = Object.fromEntries(Object.entries(f.status).filter(([, n]) => n));
      assert.deepEqual(mix, want.status, `${token} status`);
    }
    assert.deepEqual(report.crawlers.map((c) => c.token).sort(), Object.keys(EXPECTED).sort());
    // GPTBot fetched /private/x, which robots.txt disallows for it (line 2).
    assert.deepEqual(report.disallowed, [{
      token: "GPTBot",
      path: "/private/x",
      hits: 1,
      status: { "2xx": 1 },
      rule: { line: 2, pattern: "Disallow: /private/" },
    }]);
    assert.deepEqual(report.neverCrawled, ["/contact"]);
    assert.equal(report.period?.days, 2);
    const gpt = report.crawlers.find((c) => c.token === "GPTBot")!;
    assert.deepEqual(gpt.perDay.map((d) => d.verified), [3, 1]);
    assert.equal(gpt.distinctPages, 3);
    // Vercel's proxy entries name no response size: its bytes are not known (0).
    assert.equal(gpt.bytes, format === "vercel" ? 0 : 1000 + 2000 + 300 + 2000);
    assert.deepEqual(report.spoofed.find((s) => s.token === "GPTBot")?.networks, [
      { network: "203.0.113.0/24", hits: 3 },
    ]);
    assert.deepEqual(report.products.find((p) => p.vendor === "OpenAI")?.tokens, [
      "OAI-SearchBot",
      "GPTBot",
    ]);
  });
}
