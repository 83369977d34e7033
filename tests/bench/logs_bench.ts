/**
 * Server-log reading budgets (docs/logs.md), as ratios against baselines measured in the same run:
 *   1. throughput on a plain Combined log against a baseline that only splits the same file into
 *      lines (the same decoder, the same loop): the ratio must be at least 0.5;
 *   2. the same log gzipped, against `zcat` alone: at most 1.5 times zcat's time;
 *   3. peak RSS (VmHWM) of a child process reading a 200 MB and a 2 GB log: under 150 MB, flat;
 *   4. address-list lookups per million hits with 100 and with 100 000 ranges (constant time).
 * The logs are generated in a temporary directory at run time and deleted after.
 *
 *   deno run -A tests/bench/logs_bench.ts [--mb=200] [--big-mb=2048]
 */
import { parseArgs } from "node:util";
import { readAccessLog } from "../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../lib/features/logs/ip_ranges.ts";
import { PrefixTrie } from "../../lib/features/logs/ip_trie.ts";

const args = parseArgs({
  args: Deno.args,
  options: { mb: { type: "string" }, "big-mb": { type: "string" }, child: { type: "string" } },
}).values;

/** Writes a Combined log of about `mb` MB: one line in 100 from a crawler. */
async function writeLog(path: string, mb: number) {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const w = file.writable.getWriter();
  const enc = new TextEncoder();
  const target = mb * 1024 * 1024;
  let written = 0, i = 0;
  while (written < target) {
    const lines: string[] = [];
    for (let k = 0; k < 2000; k++, i++) {
      const ip = `198.51.${(i >> 8) & 255}.${i & 255}`;
      const ua = i % 100 === 0
        ? "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"
        : "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
      lines.push(
        `${i % 100 === 0 ? "20.171.206.9" : ip} - - [01/Dec/2026:10:${
          String((i >> 6) % 60).padStart(2, "0")
        }:00 +0000] "GET /blog/post-${i % 5000}?ref=x HTTP/1.1" 200 ${
          1000 + (i % 900)
        } "https://example.com/" "${ua}"`,
      );
    }
    const chunk = enc.encode(lines.join("\n") + "\n");
    await w.write(chunk);
    written += chunk.length;
  }
  await w.close();
}

/** The baseline: decode and split into lines, nothing else. */
async function splitOnly(path: string): Promise<number> {
  const file = await Deno.open(path);
  const decoder = new TextDecoder();
  let carry = "", lines = 0;
  for await (const chunk of file.readable) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    while (true) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      const line = start === 0 && carry ? carry + text.slice(0, nl) : text.slice(start, nl);
      carry = "";
      if (line.length >= 0) lines++;
      start = nl + 1;
    }
    carry += text.slice(start);
  }
  return lines;
}

const ranges = await loadRanges({ snapshot: true });
const read = async (path: string) => {
  const file = await Deno.open(path);
  return await readAccessLog(file.readable, { ranges, dns: null, keys: null });
};

if (args.child) {
  // A child process: read one file, print the peak resident set (VmHWM) in MB.
  const r = await read(args.child);
  const status = await Deno.readTextFile("/proc/self/status");
  const hwm = Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024;
  console.log(
    JSON.stringify({
      lines: r.summary.lines,
      crawlerLines: r.summary.crawlerLines,
      peakMb: Math.round(hwm),
    }),
  );
  Deno.exit(0);
}

const dir = await Deno.makeTempDir({ prefix: "logs-bench-" });
try {
  const mb = Number(args.mb ?? 200);
  const plain = `${dir}/access.log`;
  await writeLog(plain, mb);
  const size = (await Deno.stat(plain)).size / 1024 / 1024;

  // 1. Throughput against split-only, alternating, best of 3 each.
  const best = async (f: () => Promise<unknown>) => {
    let b = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await f();
      b = Math.min(b, performance.now() - t);
    }
    return b;
  };
  const base = await best(() => splitOnly(plain));
  const ours = await best(() => read(plain));
  const r = await read(plain);
  console.log(
    `throughput: ${
      size.toFixed(0)
    } MB, ${r.summary.lines} lines (${r.summary.crawlerLines} crawler)`,
  );
  console.log(
    `  split only ${(size / base * 1000).toFixed(0)} MB/s, reader ${
      (size / ours * 1000).toFixed(0)
    } MB/s, ratio ${(base / ours).toFixed(2)} (budget >= 0.5)`,
  );

  // 2. gzip against zcat.
  const gz = `${plain}.gz`;
  await new Deno.Command("sh", { args: ["-c", `gzip -c -1 '${plain}' > '${gz}'`] }).output();
  const zcat = await best(() =>
    new Deno.Command("sh", { args: ["-c", `zcat '${gz}' > /dev/null`] }).output()
  );
  const oursGz = await best(() => read(gz));
  console.log(
    `gzip: zcat ${zcat.toFixed(0)} ms, reader ${oursGz.toFixed(0)} ms, ratio ${
      (oursGz / zcat).toFixed(2)
    } (budget <= 1.5)`,
  );
  await Deno.remove(gz);

  // 3. Peak RSS, 200 MB and a big file, each in a child process.
  const peak = async (path: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, `--child=${path}`],
      stdout: "piped",
    }).output();
    return JSON.parse(new TextDecoder().decode(out.stdout));
  };
  const small = await peak(plain);
  await Deno.remove(plain);
  const bigMb = Number(args["big-mb"] ?? 2048);
  const big = `${dir}/big.log`;
  await writeLog(big, bigMb);
  const large = await peak(big);
  await Deno.remove(big);
  console.log(
    `peak RSS: ${mb} MB log ${small.peakMb} MB, ${bigMb} MB log ${large.peakMb} MB (budget < 150 MB, flat)`,
  );

  // 4. Lookups per million hits, 100 ranges against 100 000.
  const perMillion = (n: number) => {
    const t = new PrefixTrie();
    for (let i = 0; i < n; i++) t.add(`${10 + (i % 200)}.${(i >> 8) & 255}.${i & 255}.0/24`, i % 8);
    const ips = Array.from(
      { length: 1000 },
      (_, i) => `${10 + (i % 200)}.${i % 256}.${(i * 7) % 256}.9`,
    );
    let hits = 0;
    const start = performance.now();
    for (let k = 0; k < 1000; k++) for (const ip of ips) if (t.lists(ip)) hits++;
    return { ms: performance.now() - start, hits };
  };
  perMillion(1000);
  const a = perMillion(100), b = perMillion(100_000);
  console.log(
    `lookups: 1 000 000 hits in ${a.ms.toFixed(0)} ms with 100 ranges, ${
      b.ms.toFixed(0)
    } ms with 100 000 (ratio ${(b.ms / a.ms).toFixed(2)})`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
