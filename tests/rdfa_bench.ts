/**
 * What RDFa extraction costs on a large page, against the DOM parse it runs on (measured in the
 * same run): the 2 MB page of tests/bench/parse_bench.ts, plain and with 300 RDFa products (name,
 * url, image, a hanging-rel Offer with price and a <time>, a Brand) and Open Graph in the head.
 *
 * Run: deno bench -A tests/rdfa_bench.ts
 * With the extractor before the RDFa 1.1 processor in the same run:
 *   git show c06b93e:lib/structured/rdfa.ts > lib/structured/rdfa_old.ts
 *   deno bench -A tests/rdfa_bench.ts; rm lib/structured/rdfa_old.ts
 */
import { generatePage } from "./bench/parse_bench.ts";
import { parseDom } from "../lib/structured/dom.ts";
import { extractRdfa } from "../lib/structured/rdfa.ts";
import { processRdfa } from "../lib/structured/rdfa_processor.ts";
import type { DetectedItem } from "../lib/structured/record.ts";

const BASE = "https://www.example.com/";
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

// The extractor before this work, when checked out next to the new one (see the header).
type Extract = (doc: ReturnType<typeof parseDom>, base: string) => DetectedItem[];
const oldPath = new URL("../lib/structured/rdfa_old.ts", import.meta.url).href;
const old: { extractRdfa: Extract } | null = await import(oldPath).catch(() => null);

for (const [name, html] of [["2 MB page", plain], ["2 MB page + 300 RDFa products", marked]]) {
  const doc = parseDom(html);
  const group = name;
  Deno.bench(`${name}: DOM parse (the baseline)`, { group, baseline: true }, () => {
    parseDom(html);
  });
  Deno.bench(`${name}: RDFa 1.1 processor (statements)`, { group }, () => {
    processRdfa(doc, BASE);
  });
  Deno.bench(`${name}: RDFa items (processor + items + terms)`, { group }, () => {
    extractRdfa(doc, BASE);
  });
  if (old) {
    Deno.bench(`${name}: RDFa items, the extractor before (c06b93e)`, { group }, () => {
      old.extractRdfa(doc, BASE);
    });
  }
}
