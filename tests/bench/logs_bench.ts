/**
 * Server-log reading budgets (docs/logs.md), as ratios against baselines measured in the same run:
 *   1. throughput on a plain Combined log against a baseline that only splits the same file into
 *      lines (the same decoder, the same loop): the ratio must be at least 0.5. The two are run in
 *      turns, several times, and the best time of each is kept (the machine is shared: a single
 *      run says more about the neighbours than about the reader);
 *   2. the same log gzipped, against `zcat` alone: at most 1.5 times zcat's time;
 *   3. peak RSS (VmHWM) of a child process reading a 200 MB and a 2 GB log: under 150 MB, flat;
 *   4. address-list lookups per million hits with 100 and with 100 000 ranges (constant time).
 * The logs are generated in a temporary directory at run time and deleted after. Their
 * User-Agents are drawn as a real log's are: a few thousand browser agents, most lines from the
 * commonest, 1 line in 50 with an agent never seen before, 1 line in 100 from a crawler (several
 * crawlers, some spoofed). A second figure reads a log where every agent differs (the worst case
 * for the reader's memory of agents; no budget).
 *
 *   deno run -A tests/bench/logs_bench.ts [--mb=200] [--big-mb=2048] [--rounds=5]
 */
import { parseArgs } from "node:util";
import { readAccessLog } from "../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../lib/features/logs/ip_ranges.ts";
import { PrefixTrie } from "../../lib/features/logs/ip_trie.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    mb: { type: "string" },
    "big-mb": { type: "string" },
    rounds: { type: "string" },
    child: { type: "string" },
  },
}).values;

/** A small seeded generator (xorshift32), so every run writes the same log. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

const OSES = [
  "Windows NT 10.0; Win64; x64",
  "Macintosh; Intel Mac OS X 10_15_7",
  "X11; Linux x86_64",
  "iPhone; CPU iPhone OS 17_5 like Mac OS X",
  "Linux; Android 14; Pixel 8",
];

/** `n` browser agents, as varied as a site's visitors' (engines, versions, systems). */
function browserAgents(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const os = OSES[i % OSES.length];
    const v = 100 + (i % 40);
    out.push(
      i % 3 === 0
        ? `Mozilla/5.0 (${os}; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`
        : i % 3 === 1
        ? `Mozilla/5.0 (${os}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.${6000 + i}.${
          i % 200
        } Safari/537.36`
        : `Mozilla/5.0 (${os}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v % 20}.${
          i % 7
        } Safari/605.1.15`,
    );
  }
  return out;
}

const CRAWLER_LINES: [ip: string, agent: string][] = [
  // In OpenAI's published lists (the shipped snapshot): verified.
  [
    "20.171.206.9",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  ],
  // Outside them: spoofed.
  [
    "198.51.100.23",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  ],
  [
    "66.249.66.1",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  ],
  ["40.77.167.5", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"],
  ["192.0.2.44", "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"],
];

/** Writes a Combined log of about `mb` MB; `distinct`: every agent differs (the worst case). */
async function writeLog(path: string, mb: number, distinct = false) {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const w = file.writable.getWriter();
  const enc = new TextEncoder();
  const agents = browserAgents(3000);
  const rand = prng(43);
  const target = mb * 1024 * 1024;
  let written = 0, i = 0;
  while (written < target) {
    const lines: string[] = [];
    for (let k = 0; k < 2000; k++, i++) {
      let ip = `198.51.${(i >> 8) & 255}.${i & 255}`;
      let ua: string;
      if (i % 100 === 0) [ip, ua] = CRAWLER_LINES[(i / 100) % CRAWLER_LINES.length];
      else if (distinct || i % 50 === 1) ua = `${agents[i % agents.length]} Visitor/${i}`;
      // Most lines from the commonest agents (a steep power law, as in real traffic).
      else ua = agents[Math.floor(agents.length * rand() ** 4)];
      lines.push(
        `${ip} - - [01/Dec/2026:10:${
          String((i >> 6) % 60).padStart(2, "0")
        }:00 +0000] "GET /blog/post-${i % 5000}?ref=x HTTP/1.1" ${i % 37 ? 200 : 404} ${
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
      bytes: r.summary.bytes,
      peakMb: Math.round(hwm),
    }),
  );
  Deno.exit(0);
}

const rounds = Number(args.rounds ?? 5);
/** The best time of each task, run in turns `rounds` times. */
async function inTurns(tasks: Record<string, () => Promise<unknown>>) {
  const best: Record<string, number> = {};
  for (let i = 0; i < rounds; i++) {
    for (const [name, f] of Object.entries(tasks)) {
      const t = performance.now();
      await f();
      best[name] = Math.min(best[name] ?? Infinity, performance.now() - t);
    }
  }
  return best;
}

const dir = await Deno.makeTempDir({ prefix: "logs-bench-" });
try {
  const mb = Number(args.mb ?? 200);
  const plain = `${dir}/access.log`;
  await writeLog(plain, mb);
  const size = (await Deno.stat(plain)).size / 1024 / 1024;
  const r = await read(plain);

  // 1. Throughput against split-only.
  const t = await inTurns({ split: () => splitOnly(plain), reader: () => read(plain) });
  console.log(
    `throughput: ${
      size.toFixed(0)
    } MB, ${r.summary.lines} lines (${r.summary.crawlerLines} crawler), best of ${rounds} in turns`,
  );
  console.log(
    `  split only ${(size / t.split * 1000).toFixed(0)} MB/s, reader ${
      (size / t.reader * 1000).toFixed(0)
    } MB/s, ratio ${(t.split / t.reader).toFixed(2)} (budget >= 0.5)`,
  );

  // The worst case for the memory of agents: every line's agent differs (no budget).
  const worst = `${dir}/distinct.log`;
  await writeLog(worst, Math.min(mb, 40), true);
  const worstSize = (await Deno.stat(worst)).size / 1024 / 1024;
  const w = await inTurns({ split: () => splitOnly(worst), reader: () => read(worst) });
  console.log(
    `  every agent distinct (${worstSize.toFixed(0)} MB): ratio ${
      (w.split / w.reader).toFixed(2)
    } (no budget)`,
  );
  await Deno.remove(worst);

  // 2. gzip against zcat.
  const gz = `${plain}.gz`;
  await new Deno.Command("sh", { args: ["-c", `gzip -c -1 '${plain}' > '${gz}'`] }).output();
  const g = await inTurns({
    zcat: () => new Deno.Command("sh", { args: ["-c", `zcat '${gz}' > /dev/null`] }).output(),
    reader: () => read(gz),
  });
  console.log(
    `gzip: zcat ${g.zcat.toFixed(0)} ms, reader ${g.reader.toFixed(0)} ms, ratio ${
      (g.reader / g.zcat).toFixed(2)
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
    `peak RSS: ${mb} MB log ${small.peakMb} MB (${small.lines} lines), ${bigMb} MB log ${large.peakMb} MB (${large.lines} lines read to the end, ${
      (large.bytes / 1024 / 1024).toFixed(0)
    } MB) (budget < 150 MB, flat)`,
  );

  // 4. Lookups per million hits, 100 ranges against 100 000.
  const perMillion = (n: number) => {
    const trie = new PrefixTrie();
    for (let i = 0; i < n; i++) {
      trie.add(`${10 + (i % 200)}.${(i >> 8) & 255}.${i & 255}.0/24`, i % 8);
    }
    const ips = Array.from(
      { length: 1000 },
      (_, i) => `${10 + (i % 200)}.${i % 256}.${(i * 7) % 256}.9`,
    );
    let hits = 0;
    const start = performance.now();
    for (let k = 0; k < 1000; k++) for (const ip of ips) if (trie.lists(ip)) hits++;
    return { ms: performance.now() - start, hits };
  };
  perMillion(1000);
  let a = Infinity, b = Infinity;
  for (let i = 0; i < rounds; i++) {
    a = Math.min(a, perMillion(100).ms);
    b = Math.min(b, perMillion(100_000).ms);
  }
  console.log(
    `lookups: 1 000 000 hits in ${a.toFixed(0)} ms with 100 ranges, ${
      b.toFixed(0)
    } ms with 100 000 (ratio ${(b / a).toFixed(2)}; at most 1 + 16 steps per IPv4 address)`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
