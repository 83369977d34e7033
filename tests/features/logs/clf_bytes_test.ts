/**
 * The byte scanner of Common Log Format lines (lib/features/logs/clf_bytes.ts, clf_scan.wat)
 * against the text path it spares: a line it counts is one the text path drops (its shape test
 * passes and its User-Agent holds no anchor), the lines people's visits leave are counted, and a
 * whole read with it gives the same aggregates and summary as the text path and as the reader
 * without its prefilter, for generated logs of every kind of line (crawlers in any case, broken
 * shapes, other characters than ASCII, bytes that are not UTF-8, NULs, carriage returns, blank
 * and too long lines), however the log is cut into chunks. Its bytes are the ones its text
 * builds to (`deno task wasm`).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ClfByteScanner } from "../../../lib/features/logs/clf_bytes.ts";
import { checkClfAt } from "../../../lib/features/logs/formats/clf.ts";
import { TextScan } from "../../../lib/features/logs/text_scan.ts";
import { AgentFilter } from "../../../lib/features/logs/crawler_match.ts";
import { CRAWLERS } from "../../../lib/engines/visibility/crawlers.ts";
import { readAccessLog, type ReadOptions } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { compileWat, tsPathOf, wasmModuleText, WAT_FILES } from "../../tools/build_wasm.ts";
import { rangeDir, tokenPiece } from "./log_fixtures.ts";
import { concatBytes } from "../../helpers/bytes.ts";

const ranges = await loadRanges({ directory: await rangeDir(), snapshot: false });
const enc = new TextEncoder();
const tokens = CRAWLERS.map((c) => c.token);

/** Pieces of a User-Agent: browsers', the anchors' characters, tokens whole, cut and in any case. */
const agentPiece = fc.oneof(
  fc.constantFrom(
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 ",
    "Mozilla/5.0 (Windows NT 10.0; rv:120.0) Gecko/20100101 Firefox/120.0",
    "Safari/537.36",
    "b",
    "B",
    "-",
    "bo",
    "bOt",
    "bytespide",
    '\\"',
    '" "',
    "\\",
    "é",
    "\u{1F600}",
  ),
  { arbitrary: tokenPiece(tokens), weight: 2 },
);
const agent = fc.array(agentPiece, { maxLength: 5 }).map((p) => p.join(""));

/** A line as bytes: well-formed ones of every kind, and broken ones. */
const line: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      agent,
      fc.constantFrom("20.171.206.9", "198.51.100.77", "2001:db8::5", "66.249.66.1"),
      fc.constantFrom("/", "/blog/post-1", "/robots.txt", "/bot-", "/caf\u00e9", '/a"b'),
      fc.constantFrom('"-"', '"https://example.com/my-page"', '"x\\" "y"', '""'),
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom("\n", "\r\n"),
      // The time's brackets hold 20 to 40 characters in the format; here 17 to 43 of them.
      fc.constantFrom(" +0000", " +0000", " +0000", "", " +0", "   ", " +0000 UTC"),
      fc.constantFrom("", "", "", " Coordinated", " Coordinated U", " Coordinated Unive"),
    ).map(([ua, ip, path, referer, s, eol, zone, more]) => {
      const time = `30/Nov/2026:08:00:${String(s).padStart(2, "0")}${zone}${more}`;
      return enc.encode(
        `${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 5 ${referer} "${ua}"${eol}`,
      );
    }),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      // Shapes the test of clf.ts refuses, or is not sure of.
      '198.51.100.7 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5\n',
      '198.51.100.7 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "GPTBot\n',
      '198.51.100.7 -\t- [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"\n',
      '198.51.100.7  - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"\n',
      '198.51.100.7 - - [short] "GET / HTTP/1.1" 200 5 "-" "x"\n',
      // 19 characters in the brackets, 20 bytes: not the format's (the scanner counts bytes).
      '198.51.100.7 - - [30/Nov/2026:08:00:\u00e9] "GET / HTTP/1.1" 200 5 "-" "Mozilla"\n',
      '198.51.100.7 - - 30/Nov/2026:08:00:00 +0000 "GET / HTTP/1.1" 200 5 "-" "x"\n',
      ' 198.51.100.7 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"\n',
      '198.51.100.7 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-\\" "ClaudeBot"\n',
      '{"remote_addr":"1.2.3.4"}\n',
      "not a log line\n",
      "\n",
      "\r\n",
      "   \n",
    ).map((s) => enc.encode(s)),
  },
  {
    weight: 1,
    // Bytes that are not UTF-8, NULs, and lines longer than the cap (300 characters here).
    arbitrary: fc.tuple(
      fc.constantFrom(
        [0xff, 0xfe],
        [0xc3],
        [0xe2, 0x82],
        [0],
        [0xef, 0xbb, 0xbf],
        Array.from({ length: 400 }, () => 0x61),
      ),
      fc.boolean(),
    ).map(([odd, inAgent]) => {
      const head = enc.encode(
        `198.51.100.9 - - [30/Nov/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "${
          inAgent ? "Mozilla " : ""
        }`,
      );
      const tail = enc.encode(`${inAgent ? "" : "GPTBot"}"\n`);
      return new Uint8Array([...head, ...odd, ...tail]);
    }),
  },
);

/** A log: a first page of people's lines (so the format is known, and the scanner starts), then
 * the lines drawn, the last one maybe without its newline. */
function logOf(lines: Uint8Array[], endless: boolean): Uint8Array {
  const first = Array.from(
    { length: 70 },
    (_, i) =>
      enc.encode(
        `198.51.100.${i} - - [30/Nov/2026:07:00:00 +0000] "GET /p/${i} HTTP/1.1" 200 9 "-" ` +
          `"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"\n`,
      ),
  );
  const out = concatBytes([...first, ...lines]);
  return endless && out.at(-1) === 10 ? out.subarray(0, out.length - 1) : out;
}

function readCut(bytes: Uint8Array, cuts: number[], options: Partial<ReadOptions>) {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return readAccessLog(
    new ReadableStream({
      start(c) {
        let from = 0;
        for (const to of [...at, bytes.length]) {
          if (to > from) c.enqueue(bytes.slice(from, to));
          from = to;
        }
        c.close();
      },
    }),
    { ranges, dns: null, keys: null, maxLineBytes: 300, ...options },
  );
}

Deno.test("[logs/bytes] a line the scanner counts is one the text path drops, and people's lines are counted", () => {
  const scanner = ClfByteScanner.create();
  assert.ok(scanner, "the scanner runs here");
  const scan = new TextScan();
  const filter = new AgentFilter();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let counted = 0;
  fc.assert(
    fc.property(
      fc.array(line, { minLength: 1, maxLength: 30, size: "large" }),
      fc.boolean(),
      (lines, combined) => {
        const bytes = logOf(lines, false).subarray(0);
        scanner.load(new Uint8Array(), bytes);
        const r = scanner.scan(0, combined, 300);
        assert.equal(r.next, bytes.length);
        assert.equal(r.lines, 70 + lines.length);
        assert.equal(r.dropped + r.back.length, r.lines);
        const back = new Set(r.back.map((b) => b.line));
        // Each line, as the text path reads it: counted only where the text path would drop it.
        let start = 0;
        for (let i = 0; i < r.lines; i++) {
          const nl = bytes.indexOf(10, start);
          const text = decoder.decode(bytes.subarray(start, nl));
          start = nl + 1;
          if (back.has(i)) continue;
          counted++;
          const end = text.endsWith("\r") ? text.length - 1 : text.length;
          scan.reset(text);
          assert.ok(end <= 300, `line ${i} is not too long`);
          assert.ok(checkClfAt(scan, 0, end, combined), `line ${i} has the shape: ${text}`);
          if (combined) {
            assert.ok(scan.agentStart >= 0, `line ${i}'s agent is cut out`);
            const drops = scan.agentStart >= scan.agentEnd ||
              !filter.mayName(text, scan.agentStart, scan.agentEnd);
            assert.ok(drops, `line ${i}'s agent holds no anchor: ${text}`);
          }
        }
        // The first page (people's lines of a browser whose agent holds no anchor) is counted.
        for (let i = 0; i < 70; i++) assert.ok(!back.has(i), `line ${i}`);
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(counted > 300 * 70, `${counted} lines counted`);
});

Deno.test("[logs/bytes] with the scanner, a read gives the same aggregates and summary as the text path and as the reader without its prefilter, however the log is cut", async () => {
  let crawlers = 0, unreadable = 0, binary = 0, tooLong = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { minLength: 1, maxLength: 60, size: "large" }),
      fc.array(fc.integer({ min: 0, max: 1 << 20 }), {
        minLength: 1,
        maxLength: 12,
        size: "large",
      }),
      fc.boolean(),
      fc.constantFrom<("combined" | "common" | undefined)>(undefined, "combined", "common"),
      async (lines, cuts, endless, format) => {
        const bytes = logOf(lines, endless);
        const scanned = await readCut(bytes, cuts, { format });
        const text = await readCut(bytes, cuts, { format, bytes: false });
        const plain = await readCut(bytes, cuts, { format, prefilter: false });
        assert.deepEqual(scanned.summary, text.summary);
        assert.deepEqual(scanned.aggregates, text.aggregates);
        assert.deepEqual(scanned.summary, plain.summary);
        assert.deepEqual(scanned.aggregates, plain.aggregates);
        // Read whole, the same again.
        const whole = await readCut(bytes, [], { format });
        assert.deepEqual(whole.summary, scanned.summary);
        crawlers += scanned.summary.crawlerLines;
        unreadable += scanned.summary.unreadable;
        tooLong += scanned.summary.tooLong;
        if (scanned.summary.binary) binary++;
      },
    ),
    { numRuns: 200 },
  );
  // Every kind of line was met (the property is not vacuous).
  assert.ok(crawlers > 100, `${crawlers} crawlers' lines`);
  assert.ok(unreadable > 500, `${unreadable} unreadable lines`);
  assert.ok(tooLong > 20, `${tooLong} lines too long`);
  assert.ok(binary > 20, `${binary} logs with NULs`);
});

Deno.test("[logs/bytes] a long run of lines the scanner hands back is read in turns, in order", async () => {
  // More lines to hand back than one scan holds (4096): blank lines and crawlers' lines.
  const lines = Array.from(
    { length: 9000 },
    (_, i) =>
      i % 3 === 0 ? enc.encode("\n") : enc.encode(
        `20.171.206.9 - - [30/Nov/2026:08:00:00 +0000] "GET /a/${i} HTTP/1.1" 200 5 "-" ` +
          `"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2"\n`,
      ),
  );
  const bytes = logOf(lines, false);
  const scanned = await readCut(bytes, [], { format: "combined" });
  const text = await readCut(bytes, [], { format: "combined", bytes: false });
  assert.deepEqual(scanned.summary, text.summary);
  assert.deepEqual(scanned.aggregates, text.aggregates);
  assert.equal(scanned.summary.crawlerLines, 6000);
  assert.equal(scanned.summary.skipped, 3000);
});

Deno.test("[logs/bytes] the scanner's bytes are those its text builds to (deno task wasm)", async () => {
  for (const path of WAT_FILES) {
    const have = await Deno.readTextFile(new URL(`../../../${tsPathOf(path)}`, import.meta.url));
    assert.equal(have, wasmModuleText(path, await compileWat(path)), `${tsPathOf(path)} is stale`);
  }
});

Deno.test("[logs/bytes] a log trickling in by small pieces is loaded into the scanner about once (linear): a long unfinished line is kept, not scanned again for each piece", async () => {
  let loaded = 0;
  const load = ClfByteScanner.prototype.load;
  ClfByteScanner.prototype.load = function (head: Uint8Array, body: Uint8Array) {
    loaded += head.length + body.length;
    return load.call(this, head, body);
  };
  try {
    const person = (i: number) =>
      `198.51.100.1 - - [30/Nov/2026:08:00:00 +0000] "GET /${i} HTTP/1.1" 200 5 "-" "Mozilla/5.0"\n`;
    const long = (n: number) =>
      `198.51.100.2 - - [30/Nov/2026:08:00:00 +0000] "GET /${
        "x".repeat(n)
      } HTTP/1.1" 200 5 "-" "GPTBot"\n`;
    const bytes = logOf(
      [
        enc.encode(long(150_000)), // under three times the cap (64 KiB) in bytes: kept to its end
        ...Array.from({ length: 200 }, (_, i) => enc.encode(person(i))),
        enc.encode(long(300_000)), // over it: counted too long, the rest skipped
        ...Array.from({ length: 200 }, (_, i) => enc.encode(person(i))),
      ],
      false,
    );
    const cuts = Array.from({ length: Math.ceil(bytes.length / 16) }, (_, i) => i * 16);
    loaded = 0;
    const r = await readCut(bytes, cuts, { maxLineBytes: 65_536 });
    assert.ok(loaded < 3 * bytes.length, `${loaded} bytes loaded for a log of ${bytes.length}`);
    assert.equal(r.summary.tooLong, 2);
    assert.equal(r.summary.lines, 70 + 402);
    assert.equal(r.summary.otherLines, 470);
    const text = await readCut(bytes, cuts, { maxLineBytes: 65_536, bytes: false });
    assert.deepEqual(r.summary, text.summary);
  } finally {
    ClfByteScanner.prototype.load = load;
  }
});
