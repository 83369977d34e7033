/**
 * What RDFa extraction costs, against the DOM parse it runs on, measured in the same run: the
 * 2 MB page of tests/bench/parse_bench.ts, plain and with 300 RDFa products (name, url, image, a
 * hanging-rel Offer with a price and a <time>, a Brand) and Open Graph in the head, and the 300
 * products alone. Runs are interleaved and the minimum kept, which a shared, loaded machine
 * disturbs least; read the ratios, not the milliseconds.
 *
 * Run: deno run -A tests/rdfa_bench.ts
 * With the extractor before the RDFa 1.1 processor in the same run:
 *   git show c06b93e:lib/structured/rdfa.ts > lib/engines/structured/rdfa_old.ts
 *   deno run -A tests/rdfa_bench.ts; rm lib/engines/structured/rdfa_old.ts
 */
import { generatePage } from "./bench/parse_bench.ts";
import { parseDom } from "../lib/engines/structured/dom.ts";
import { extractRdfa } from "../lib/engines/structured/rdfa.ts";
import type { DetectedItem } from "../lib/engines/structured/record.ts";

const BASE = "https://www.example.com/";
const RUNS = 100;
const plain = generatePage();
const products = Array.from(
  { length: 300 },
  (_, i) =>
    `<div vocab="https://schema.org/" typeof="Product"><span property="name">P${i}</span>` +
    `<a href="/p/${i}" property="url">link</a><img property="image" src="/i/${i}.jpg">` +
    `<div rel="offers"><div typeof="Offer"><meta property="price" content="${i}">` +
    `<time property="priceValidUntil" datetime="2030-01-01">soon</time></div></div>` +
    `<div property="brand" typeof="Brand"><span property="name">B${i % 7}</span></div></div>`,
).join("");
const marked = plain.replace("</body>", `${products}</body>`).replace(
  "<head>",
  '<head><meta property="og:title" content="T"><meta property="og:image" content="/x.jpg">',
);

type Extract = (doc: ReturnType<typeof parseDom>, base: string) => DetectedItem[];
const oldPath = new URL("../lib/engines/structured/rdfa_old.ts", import.meta.url).href;
const old: { extractRdfa: Extract } | null = await import(oldPath).catch(() => null);

const pages: [string, string][] = [
  ["2 MB page", plain],
  ["2 MB page + 300 RDFa products", marked],
  ["300 RDFa products alone", `<html><body>${products}</body></html>`],
];
for (const [name, html] of pages) {
  const doc = parseDom(html);
  let parse = Infinity, now = Infinity, before = Infinity;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    extractRdfa(doc, BASE);
    now = Math.min(now, performance.now() - t);
    if (old) {
      t = performance.now();
      old.extractRdfa(doc, BASE);
      before = Math.min(before, performance.now() - t);
    }
    if (i % 10 === 0) {
      t = performance.now();
      parseDom(html);
      parse = Math.min(parse, performance.now() - t);
    }
  }
  const vsOld = old
    ? `; before (c06b93e) ${before.toFixed(1)} ms, now/before ${(now / before).toFixed(2)}`
    : "";
  console.log(
    `${name}: RDFa items ${now.toFixed(1)} ms = ${(now / parse).toFixed(2)} x the DOM parse ` +
      `(${parse.toFixed(1)} ms)${vsOld}`,
  );
}
