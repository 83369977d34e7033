/**
 * Bad input to the log reader: binary bytes, a truncated gzip stream, a 1 MB line, a log of
 * another format than the one chosen. Each gets a clear message, the readable part is counted,
 * and nothing throws.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { readAccessLog } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { rangeDir, RENDER, SCENARIO, streamOf } from "./log_fixtures.ts";

const ranges = await loadRanges({ directory: await rangeDir(), snapshot: false });
const read = (input: string | Uint8Array<ArrayBuffer>, format?: "combined" | "caddy") =>
  readAccessLog(streamOf(input), { ranges, dns: null, keys: null, format });
const combined = RENDER.combined(SCENARIO);
const lines = combined.trimEnd().split("\n").length;

Deno.test("[logs/bad input] gzip is read as the plain text is", async () => {
  const plain = await read(combined);
  const zipped = await read(new Uint8Array(gzipSync(combined)));
  assert.equal(zipped.summary.gzip, true);
  assert.deepEqual(zipped.aggregates, plain.aggregates);
  assert.deepEqual(zipped.summary.messages, []);
});

Deno.test("[logs/bad input] a truncated gzip stream: a message, the lines before the break counted", async () => {
  const big = RENDER.combined(Array.from({ length: 400 }, () => SCENARIO).flat());
  const zipped = new Uint8Array(gzipSync(big));
  const cut = zipped.slice(0, Math.floor(zipped.length * 0.6));
  const { summary } = await read(cut);
  assert.equal(summary.truncated, true);
  assert.match(summary.messages.join(" "), /gzip stream ends before its end marker/);
  assert.ok(summary.lines > 100 && summary.lines < 400 * SCENARIO.length, `${summary.lines} lines`);
  assert.ok(summary.crawlerLines > 0);
});

Deno.test("[logs/bad input] a binary file: a message, nothing throws", async () => {
  const bytes = new Uint8Array(50_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  const { summary } = await read(bytes);
  assert.equal(summary.binary, true);
  assert.match(summary.messages.join(" "), /not a text log/);
  assert.equal(summary.crawlerLines, 0);
});

Deno.test("[logs/bad input] a 1 MB line is counted as too long; the lines around it are read", async () => {
  const [first, ...rest] = combined.trimEnd().split("\n");
  const text = [first, "x".repeat(1024 * 1024), ...rest].join("\n");
  const { summary } = await read(text);
  assert.equal(summary.tooLong, 1);
  assert.deepEqual(summary.unreadableLines, [{ line: 2, why: "longer than 65536 characters" }]);
  assert.equal(summary.lines, lines + 1);
  assert.equal(summary.crawlerLines + summary.otherLines, lines);
  assert.match(summary.messages.join(" "), /longer than 65536 characters/);
});

Deno.test("[logs/bad input] a log of another format than chosen: every line counted unreadable, the real format named", async () => {
  const { summary } = await read(RENDER.caddy(SCENARIO), "combined");
  assert.equal(summary.format, "combined");
  assert.equal(summary.detected, "caddy");
  assert.equal(summary.overridden, true);
  assert.equal(summary.unreadable, SCENARIO.length);
  assert.equal(summary.unreadableLines[0].line, 1);
  assert.match(
    summary.messages.join(" "),
    /16 of 16 lines are not combined lines\. The content looks like caddy\./,
  );
});

Deno.test("[logs/bad input] an unreadable line in the middle is counted with its number, never its text", async () => {
  const all = combined.trimEnd().split("\n");
  all.splice(3, 0, "203.0.113.250 this line is broken GPTBot");
  const { summary } = await read(all.join("\n"));
  assert.deepEqual(summary.unreadableLines, [{ line: 4, why: "not a Common Log Format line" }]);
  assert.ok(!JSON.stringify(summary).includes("203.0.113.250"));
});

Deno.test("[logs/bad input] the size cap stops the read and says so", async () => {
  const { summary } = await readAccessLog(streamOf(combined), {
    ranges,
    dns: null,
    keys: null,
    maxBytes: 400,
  });
  assert.equal(summary.cut, true);
  assert.equal(summary.bytes, 400);
  assert.match(summary.messages.join(" "), /Only the first 400 bytes were read/);
});
