/**
 * Why page facts come from one SAX pass: extractPageFacts against building a DOM with
 * htmlparser2 and with linkedom, on a generated ~2 MB page.
 *
 * Run: deno bench --allow-read --allow-env tests/bench/parse_bench.ts
 */
import { parseDocument, Parser } from "htmlparser2";
import { parseHTML } from "linkedom";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";

const TARGET_BYTES = 2 * 1024 * 1024;
const BASE_URL = "https://www.example.com/blog/post";

/** Deterministic pseudo-random numbers, so every run benches the same page. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  "search engines answer questions with content they can read quickly and cite with " +
  "confidence so pages that render on the server expose structured data and keep their " +
  "main text in plain html tend to be quoted more often than client side applications"
).split(" ");

/** A page shaped like a long article or category page: nav, sections, lists, JSON-LD, a bundle. */
export function generatePage(targetBytes = TARGET_BYTES): string {
  const rand = rng(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const parts: string[] = [];
  parts.push(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>A long generated article &amp; guide</title>`,
    `<meta name="description" content="${sentence(25)}">`,
    `<meta property="og:title" content="Generated"><meta name="twitter:card" content="summary">`,
    `<link rel="canonical" href="${BASE_URL}">`,
    `<link rel="alternate" type="application/rss+xml" href="/feed.xml">`,
  );
  for (let i = 0; i < 3; i++) {
    const graph = Array.from({ length: 20 }, (_, j) => ({
      "@type": "Article",
      "@id": `${BASE_URL}#a${i}-${j}`,
      headline: sentence(8),
      author: { "@type": "Person", name: "Writer " + j },
    }));
    parts.push(
      `<script type="application/ld+json">${
        JSON.stringify({ "@context": "https://schema.org", "@graph": graph })
      }</script>`,
    );
  }
  // A framework bundle inlined into the page, as many SPAs and page builders ship.
  const bundle = Array.from(
    { length: 3000 },
    (_, i) => `function f${i}(a,b){return a<b?a+${i}:b*${i}}`,
  ).join(";");
  parts.push(`<script>${bundle}</script></head><body><header><nav><ul>`);
  for (let i = 0; i < 40; i++) parts.push(`<li><a href="/section/${i}">${sentence(2)}</a></li>`);
  parts.push(`</ul></nav></header><main><article>`);

  let bytes = parts.reduce((n, p) => n + p.length, 0);
  const footer =
    `</article></main><footer><a href="/about">About us</a> <a href="/contact">Contact</a> ` +
    `<a href="/privacy">Privacy</a></footer></body></html>`;
  for (let s = 0; bytes < targetBytes - footer.length - 4000; s++) {
    const chunk: string[] = [`<section id="s${s}"><h2>${sentence(6)}?</h2>`];
    for (let p = 0; p < 4; p++) {
      chunk.push(
        `<p>${sentence(30)} <a href="/post/${s}-${p}">${sentence(3)}</a> ` +
          `<strong>${sentence(4)}</strong> <a href="https://ext${p}.example.org/r/${s}">` +
          `${sentence(2)}</a> ${sentence(20)}</p>`,
      );
    }
    chunk.push(`<h3>${sentence(4)}</h3><ul>`);
    for (let li = 0; li < 5; li++) chunk.push(`<li>${sentence(8)}</li>`);
    chunk.push(
      `</ul><figure><img src="/img/${s}.jpg" alt="${sentence(5)}" loading="lazy">`,
      `<figcaption>${sentence(6)}</figcaption></figure></section>`,
    );
    const text = chunk.join("");
    parts.push(text);
    bytes += text.length;
  }
  parts.push(footer);
  return parts.join("");
}

/** The slice of linkedom's Document this bench calls. */
interface QueryRoot {
  querySelectorAll(selector: string): { length: number };
}

const PAGE = generatePage();
console.log(`page: ${(PAGE.length / 1024 / 1024).toFixed(2)} MB`);

Deno.bench({
  name: "extractPageFacts (htmlparser2 SAX, one pass)",
  group: "parse 2MB",
  baseline: true,
  n: 30,
  warmup: 5,
  fn() {
    extractPageFacts(PAGE, BASE_URL);
  },
});

Deno.bench({
  name: "floor: htmlparser2 Parser, empty handlers",
  group: "parse 2MB",
  n: 20,
  warmup: 3,
  fn() {
    new Parser({ onopentag() {}, ontext() {}, onclosetag() {} }, {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
    }).end(PAGE);
  },
});

Deno.bench({
  name: "htmlparser2 parseDocument",
  group: "parse 2MB",
  n: 20,
  warmup: 3,
  fn() {
    parseDocument(PAGE);
  },
});

Deno.bench({
  name: "linkedom parseHTML + querySelectorAll",
  group: "parse 2MB",
  n: 5,
  warmup: 1,
  fn() {
    // Deno's lib has no DOM types, so linkedom's `Window & typeof globalThis` lacks `document`.
    const { document } = parseHTML(PAGE) as unknown as { document: QueryRoot };
    document.querySelectorAll("a[href]").length;
    document.querySelectorAll("h1,h2,h3,h4,h5,h6").length;
    document.querySelectorAll('script[type="application/ld+json"]').length;
    document.querySelectorAll("img").length;
  },
});
