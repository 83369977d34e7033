/**
 * Privacy by construction, as properties: any interleaving of people's lines with crawler lines
 * gives the same crawler aggregates; no person's address (nor User-Agent) appears anywhere in what
 * a read produces (aggregates and summary); and aggregates of any split of a log into shards merge
 * into the aggregates of the whole.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { readAccessLog } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { emptyAggregates, mergeAggregates } from "../../../lib/features/logs/aggregate.ts";
import { createCrawlerDns } from "../../../lib/kit/net/crawler_dns.ts";
import { DNS, rangeDir, RENDER, type Req, SCENARIO, streamOf } from "./log_fixtures.ts";

const ranges = await loadRanges({ directory: await rangeDir(), snapshot: false });
const read = (format: string, rs: Req[]) =>
  readAccessLog(streamOf(RENDER[format](rs)), {
    ranges,
    dns: createCrawlerDns({ queries: DNS }),
    keys: null,
  });

const crawlerReqs = SCENARIO.filter((r) =>
  /GPTBot|OAI-SearchBot|Googlebot\/|CCBot|ClaudeBot/.test(r.ua)
);

/** A person's request: an address of any form, a browser User-Agent, sometimes a crawler's name in the path. */
const human = fc.record({
  a: fc.integer({ min: 1, max: 223 }),
  b: fc.integer({ min: 0, max: 255 }),
  c: fc.integer({ min: 0, max: 255 }),
  d: fc.integer({ min: 1, max: 254 }),
  v6: fc.boolean(),
  path: fc.constantFrom("/", "/blog/gptbot-review", "/search?q=ClaudeBot", "/cart"),
  minute: fc.integer({ min: 0, max: 2 * 24 * 60 }),
}).map(({ a, b, c, d, v6, path, minute }): Req => ({
  time: Date.UTC(2026, 10, 30) + minute * 60_000,
  ip: v6
    ? `2001:db8:${a.toString(16)}:${b.toString(16)}::${d.toString(16)}`
    : `${a}.${b}.${c}.${d}`,
  method: "GET",
  path,
  status: 200,
  bytes: 123,
  ua: `Mozilla/5.0 (Person ${a}-${b}-${c}-${d}) Firefox/128.0`,
  host: "shop.test",
}));

Deno.test("[logs/privacy] any interleaving of people and crawlers gives the same crawler aggregates, and no person's address or agent is kept", async () => {
  const base = await read("combined", crawlerReqs);
  await fc.assert(
    fc.asyncProperty(
      fc.array(human, { maxLength: 40 }),
      fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
      fc.constantFrom("combined", "caddy", "cloudflare", "w3c"),
      async (people, order, format) => {
        // Interleave: each person's line goes in at a position the generator picks.
        const mixed = [...crawlerReqs];
        people.forEach((p, i) => mixed.splice(order[i] % (mixed.length + 1), 0, p));
        const { aggregates, summary } = await read(format, mixed);
        const expected = format === "combined" ? base : await read(format, crawlerReqs);
        assert.deepEqual(aggregates, expected.aggregates);
        assert.equal(summary.otherLines, people.length);
        const stored = JSON.stringify({ aggregates, summary });
        for (const p of people) {
          assert.ok(!stored.includes(p.ip), `${p.ip} kept`);
          assert.ok(!stored.includes(p.ua), `${p.ua} kept`);
        }
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("[logs/privacy] no crawler's address is kept either: only the networks of spoofed hits", async () => {
  const { aggregates } = await read("combined", SCENARIO);
  const stored = JSON.stringify(aggregates);
  for (const r of SCENARIO) assert.ok(!stored.includes(`"${r.ip}"`), r.ip);
  assert.ok(stored.includes("203.0.113.0/24"));
});

Deno.test("[logs/aggregate] shards of a log merge into the aggregates of the whole", async () => {
  const whole = await read("combined", SCENARIO);
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 1, max: SCENARIO.length - 1 }), { maxLength: 4 }),
      async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), SCENARIO.length];
        const merged = emptyAggregates();
        for (let i = 0; i + 1 < points.length; i++) {
          const shard = await read("combined", SCENARIO.slice(points[i], points[i + 1]));
          mergeAggregates(merged, shard.aggregates);
        }
        assert.deepEqual(merged, whole.aggregates);
      },
    ),
    { numRuns: 40 },
  );
});
