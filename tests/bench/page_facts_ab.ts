/**
 * The one-pass page facts (lib/engines/html/page_facts.ts) of this checkout against another
 * checkout's, on the 2 MB bench page, interleaved in one process so both see the same load: the
 * ratio new/old of the minimum and of the median of `runs` runs each (how much the visible byline
 * reader costs, docs/schema.md "Visible bylines and dates").
 *
 *   git archive <commit> lib | tar -x -C /tmp/old     # e.g. the commit before the byline reader
 *   deno run -A --import-map=tests/import_map.json tests/bench/page_facts_ab.ts /tmp/old [runs]
 */
import { pathToFileURL } from "node:url";
import { generatePage } from "./parse_bench.ts";
import { extractPageFacts as current } from "../../lib/engines/html/page_facts.ts";

if (!Deno.args[0]) {
  console.error("usage: page_facts_ab.ts <the other checkout's root> [runs]");
  Deno.exit(2);
}
const other = pathToFileURL(`${Deno.args[0].replace(/\/$/, "")}/`).href;
const { extractPageFacts: baseline } = await import(
  new URL("lib/engines/html/page_facts.ts", other).href
);
const runs = Number(Deno.args[1] ?? 15);
const page = generatePage();
const url = "https://www.example.com/blog/post";
const time = (f: (html: string, url: string) => unknown) => {
  const start = performance.now();
  f(page, url);
  return performance.now() - start;
};
for (let i = 0; i < 3; i++) time(current), time(baseline);
const a: number[] = [];
const b: number[] = [];
for (let i = 0; i < runs; i++) a.push(time(current)), b.push(time(baseline));
a.sort((x, y) => x - y);
b.sort((x, y) => x - y);
const mid = Math.floor(runs / 2);
console.log(
  `this checkout: min ${a[0].toFixed(1)} ms, median ${a[mid].toFixed(1)} ms; other: min ${
    b[0].toFixed(1)
  } ms, median ${b[mid].toFixed(1)} ms; ratio of the minimums ${(a[0] / b[0]).toFixed(2)}, ` +
    `of the medians ${(a[mid] / b[mid]).toFixed(2)}; load ${Deno.loadavg()[0].toFixed(1)}`,
);
