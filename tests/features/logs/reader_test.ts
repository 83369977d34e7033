/**
 * The reader's fast path (lib/features/logs/text_scan.ts, formats/clf.ts checkClfAt, the agent
 * memory of crawler_match.ts) and the prefix tree, against the plain definitions they replace:
 * the shape test agrees with the Common Log Format's pattern, a crawler named anywhere in the
 * User-Agent is found however the agent is written, the chunking of the input changes nothing,
 * and a lookup in the tree equals a scan of every range.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkClfAt, looksLikeClf } from "../../../lib/features/logs/formats/clf.ts";
import { TextScan } from "../../../lib/features/logs/text_scan.ts";
import {
  AgentFilter,
  anchorsFor,
  crawlerOf,
  mayNameCrawler,
} from "../../../lib/features/logs/crawler_match.ts";
import { CRAWLERS } from "../../../lib/engines/visibility/crawlers.ts";
import { readAccessLog } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { addressBytes, PrefixTrie } from "../../../lib/features/logs/ip_trie.ts";
import { rangeDir, RENDER, SCENARIO, tokenPiece } from "./log_fixtures.ts";

const ranges = await loadRanges({ directory: await rangeDir(), snapshot: false });
const read = (chunks: string[], format?: "combined") =>
  readAccessLog(
    new ReadableStream({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    }),
    { ranges, dns: null, keys: null, format },
  );

/** The pattern the fast test stands for (white space inside a field aside: see checkClfAt). */
const SHAPE = /^\S+ \S+ \S+ \[[^\]]{20,40}\] "/;

Deno.test("[logs/reader] the shape test by hand equals the Common Log Format's pattern", () => {
  const parts = [
    "a",
    "1.2.3.4",
    " ",
    "-",
    "[",
    "]",
    '"',
    "x".repeat(25),
    "10/Oct/2000:13:55:36 -0700",
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 14 }), (bits) => {
      const line = bits.join("");
      assert.equal(looksLikeClf(line), SHAPE.test(line), JSON.stringify(line));
      // In place, inside a larger text, the fast check agrees too (tabs never occur here).
      const text = `x y z [${"0".repeat(22)}] "\n${line}\n1 2 3`;
      const scan = new TextScan();
      scan.reset(text);
      scan.space(0);
      const start = text.indexOf("\n") + 1;
      assert.equal(checkClfAt(scan, start, start + line.length, true), SHAPE.test(line));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("[logs/reader] a crawler is found however its User-Agent is written: escaped quotes, fields after it, odd case", async () => {
  const line = (agent: string, tail = "") =>
    `192.0.2.10 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "${agent}"${tail}`;
  const cases = [
    line("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"),
    line('Mozilla/5.0 \\"quoted\\" GPTBot/1.2'),
    line('GPTBot/1.2 \\" \\"x'),
    line("gptbot/1.2"),
    line("Mozilla/5.0 GPTBot/1.2", ' "extra field"'),
    line("Mozilla/5.0 GPTBot/1.2", " 123"),
    `192.0.2.10 - - [30/Nov/2026:08:00:00 +0000] "GET /a\\" \\"b HTTP/1.1" 200 5 "-" "GPTBot/1.2"`,
  ];
  const { summary, aggregates } = await read([cases.join("\n") + "\n"], "combined");
  assert.equal(summary.unreadable, 0, JSON.stringify(summary.unreadableLines));
  assert.equal(summary.crawlerLines, cases.length);
  assert.equal(aggregates.days["2026-11-30"].GPTBot.hits.verified, cases.length);
});

Deno.test("[logs/reader] how the input is cut into chunks changes nothing", async () => {
  const text = RENDER.combined(Array.from({ length: 30 }, () => SCENARIO).flat()) +
    "not a log line\r\n\r\n";
  const whole = await read([text]);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }),
      async (cuts) => {
        const at = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...at].map((c, i) => text.slice(c, at[i] ?? text.length));
        const got = await read(chunks);
        assert.deepEqual(got.aggregates, whole.aggregates);
        assert.deepEqual(got.summary, whole.summary);
      },
    ),
    { numRuns: 60 },
  );
  assert.equal(whole.summary.unreadable, 1);
  assert.equal(whole.summary.unreadableLines[0].line, 30 * SCENARIO.length + 1);
});

Deno.test("[logs/reader] a hostile chunk (nothing to find before each line's end) is searched once over", () => {
  // Each filler line makes a search find nothing before the line's end; without the kept
  // positions each line's search would run on to the chunk's end (quadratic in the chunk).
  for (const filler of ["x", "a b", "a b c [", `a b c [${"1".repeat(25)}] "x`]) {
    const text = Array.from({ length: 5_000 }, () => filler).join("\n");
    const scan = new TextScan();
    scan.reset(text);
    let start = 0;
    for (let nl = text.indexOf("\n");; nl = text.indexOf("\n", start)) {
      const end = nl < 0 ? text.length : nl;
      checkClfAt(scan, start, end, true);
      if (nl < 0) break;
      start = nl + 1;
    }
    // Each kind of search goes over the text at most once.
    assert.ok(scan.searched <= 3 * text.length, `${filler}: ${scan.searched} of ${text.length}`);
  }
});

Deno.test("[logs/reader] the agents' prefilter never drops an agent that names a crawler, in any case, wherever it lies in a text", () => {
  const tokens = CRAWLERS.map((c) => c.token);
  // Every token holds an anchor (a token holding none would be an anchor of its own).
  const anchors = anchorsFor(tokens);
  for (const t of tokens) assert.ok(anchors.some((a) => t.toLowerCase().includes(a)), t);
  // A token the registry adds is covered too, however short.
  const more = anchorsFor([...tokens, "Zzyzx", "Q"]);
  assert.ok(more.some((a) => "zzyzx".includes(a)) && more.includes("q"), more.join(" "));
  // Agents from pieces of browsers' agents, tokens, their letters in either case and the
  // characters the anchors start with, several to a text, asked about in order as the reader
  // asks: whenever the tokens' expression finds a token, the prefilter says so.
  const piece = fc.oneof(
    fc.constantFrom(
      "Mozilla/5.0 (",
      "AppleWebKit/537.36",
      " (KHTML, like Gecko) ",
      "Safari/537.36",
      "/blog/",
      "- -",
      "b",
      "B",
      "-",
      "bo",
      "o",
      "O",
      "t",
      "T",
      "y",
      "U",
      " ",
    ),
    { arbitrary: tokenPiece(tokens), weight: 2 },
  );
  const agent = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
  fc.assert(
    fc.property(
      fc.array(fc.tuple(agent, fc.array(piece, { maxLength: 3 })), { maxLength: 6 }),
      (parts) => {
        // Each agent between quotes, with other text (the next line's start) after it.
        let text = "";
        const at: [number, number][] = [];
        for (const [a, gap] of parts) {
          text += '"';
          at.push([text.length, text.length + a.length]);
          text += `${a}"\n${gap.join("")} `;
        }
        const filter = new AgentFilter();
        for (const [start, end] of at) {
          const named = mayNameCrawler(text.slice(start, end));
          if (named) assert.ok(filter.mayName(text, start, end), text.slice(start, end));
          else filter.mayName(text, start, end);
        }
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("[logs/reader] with the prefilter, a log's random lines naming any crawler are all kept: the same aggregates and summary as the reader without it", async () => {
  const tokens = CRAWLERS.map((c) => c.token);
  // Agents: browsers' pieces, the anchors' first characters, cut and whole tokens in any case.
  const piece = fc.oneof(
    fc.constantFrom("Mozilla/5.0 (", "Windows NT 10.0; Win64; x64) ", "Safari/537.36", "; ", "b"),
    fc.constantFrom("B", "-", "bo", "t", "O", "T", "-u", "+https://x.example/", ")"),
    { arbitrary: tokenPiece(tokens), weight: 2 },
  );
  const agent = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
  const line = fc.tuple(
    agent,
    fc.constantFrom("192.0.2.10", "198.51.100.77", "2001:db8::5"),
    fc.constantFrom("/", "/blog/", "/private/x", "/bot-", "/-"),
    fc.integer({ min: 0, max: 59 }),
  ).map(([ua, ip, path, s]) =>
    `${ip} - - [30/Nov/2026:08:00:${String(s).padStart(2, "0")} +0000] "GET ${path} HTTP/1.1" ` +
    `200 5 "-" "${ua}"`
  );
  const readWith = (text: string, cut: number, prefilter: boolean) =>
    readAccessLog(
      new ReadableStream({
        start(c) {
          const bytes = new TextEncoder().encode(text);
          for (let i = 0; i < bytes.length; i += cut) c.enqueue(bytes.slice(i, i + cut));
          c.close();
        },
      }),
      { ranges, dns: null, keys: null, format: "combined", prefilter },
    );
  let named = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 7, max: 4096 }),
      async (lines, cut) => {
        const text = lines.join("\n") + "\n";
        const plain = await readWith(text, cut, false);
        const filtered = await readWith(text, cut, true);
        assert.deepEqual(filtered.aggregates, plain.aggregates);
        assert.deepEqual(filtered.summary, plain.summary);
        // Every line whose agent names a crawler was read as a crawler's.
        const agents = lines.map((l) => l.slice(l.indexOf('"-" "') + 5, -1));
        const naming = agents.filter((a) => crawlerOf(a) !== null).length;
        assert.equal(filtered.summary.crawlerLines, naming);
        named += naming;
      },
    ),
    { numRuns: 300 },
  );
  // The generator does produce crawlers' lines (the property is not vacuous).
  assert.ok(named > 100, `${named} lines naming a crawler`);
});

Deno.test("[logs/reader] a lookup in the prefix tree equals a scan of every range", () => {
  const v4 = fc.tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  ).map((b) => b.join("."));
  const v6 = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })
    .map((h) => h.map((x) => x.toString(16)).join(":"));
  const inRange = (ip: string, cidr: string) => {
    const [base, bits] = cidr.split("/");
    const a = addressBytes(ip)!, b = addressBytes(base)!;
    if (a.length !== b.length) return false;
    for (let i = 0; i < Number(bits); i++) {
      if (((a[i >> 3] >> (7 - (i & 7))) & 1) !== ((b[i >> 3] >> (7 - (i & 7))) & 1)) return false;
    }
    return true;
  };
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.tuple(v4, fc.integer({ min: 0, max: 32 })),
          fc.tuple(v6, fc.integer({ min: 0, max: 128 })),
        ).map(([ip, bits]) => `${ip}/${bits}`),
        { maxLength: 30 },
      ),
      fc.array(fc.oneof(v4, v6), { minLength: 1, maxLength: 20 }),
      (cidrs, ips) => {
        const trie = new PrefixTrie();
        cidrs.forEach((c, i) => assert.ok(trie.add(c, i % 32)));
        // Addresses near the ranges too: each range's own base address.
        for (const ip of [...ips, ...cidrs.map((c) => c.split("/")[0])]) {
          let want = 0;
          cidrs.forEach((c, i) => {
            if (inRange(ip, c)) want |= 1 << (i % 32);
          });
          assert.equal(trie.lists(ip), want >>> 0, `${ip} in ${cidrs.join(" ")}`);
        }
      },
    ),
    { numRuns: 400 },
  );
});
