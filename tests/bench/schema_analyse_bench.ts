/**
 * The schema service's analysis of a 2 MB page (extraction of JSON-LD, microdata and RDFa,
 * validation with Google's rules and eligibility, generation), the same page the visibility
 * bench uses, plus the same page with 300 RDFa and 300 microdata items.
 *
 * Run: deno bench -A tests/bench/schema_analyse_bench.ts
 */
import { analysePage } from "../../lib/engines/schema/scan.ts";
import { generatePage } from "./parse_bench.ts";

const URL_ = "https://www.example.com/";
const plain = generatePage();
const items = Array.from(
  { length: 300 },
  (_, i) =>
    `<div vocab="https://schema.org/" typeof="Product"><span property="name">P${i}</span>` +
    `<div rel="offers"><div typeof="Offer"><meta property="price" content="${i}"></div></div></div>` +
    `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">M${i}</span></div>`,
).join("");
const marked = plain.replace("</body>", `${items}</body>`);

const page = (html: string) => ({
  requestedUrl: URL_,
  finalUrl: URL_,
  status: 200,
  contentType: "text/html",
  redirects: 0,
  bytes: html.length,
  truncated: false,
  fetchMs: 0,
});

Deno.bench(`schema analysePage, ${(plain.length / 1e6).toFixed(1)} MB page`, () => {
  analysePage(plain, page(plain), "example.com");
});

Deno.bench(`schema analysePage, same page + 600 items`, () => {
  analysePage(marked, page(marked), "example.com");
});
