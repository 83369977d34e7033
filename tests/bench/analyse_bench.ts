/**
 * The time to analyse a 2 MB home page: parse it once and compute every signal, pillar, gate and
 * fix, against the floor of this runtime (htmlparser2 tokenising the same page with empty
 * handlers) measured in the same run. Budget (issue "Performance"): under 100 ms.
 *
 * Run: deno task bench
 */
import { Parser } from "htmlparser2";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import { analyseSnapshot } from "../../lib/engines/visibility/scan.ts";
import type { FetchOutcome, Snapshot } from "../../lib/engines/visibility/snapshot_types.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";
import { generatePage } from "./parse_bench.ts";

const html = generatePage();
const URL_ = "https://www.example.com/";

function answer(path: string, status: number, body: string, type = "text/plain"): FetchOutcome {
  return {
    ok: true,
    result: {
      url: new URL(path, URL_).href,
      finalUrl: new URL(path, URL_).href,
      status,
      headers: { "content-type": type },
      body,
      bytes: body.length,
      truncated: false,
      redirects: [],
      ttfbMs: 120,
      totalMs: 300,
      remoteAddress: "93.184.216.34",
    },
  };
}

const robots =
  "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://www.example.com/sitemap.xml\n";
const sitemap = `<?xml version="1.0"?><urlset>${
  Array.from({ length: 2000 }, (_, i) =>
    `<url><loc>https://www.example.com/p/${i}</loc><lastmod>2026-10-01</lastmod></url>`).join("")
}</urlset>`;

function snapshot(): Snapshot {
  const home = answer("/", 200, html, "text/html; charset=utf-8");
  return {
    target: normaliseTarget(URL_),
    home,
    facts: extractPageFacts(html, URL_),
    parseMs: 0,
    robots: answer("/robots.txt", 200, robots),
    sitemap: {
      url: `${URL_}sitemap.xml`,
      source: "robots",
      outcome: answer("/sitemap.xml", 200, sitemap, "application/xml"),
    },
    llms: answer("/llms.txt", 404, "not found", "text/html"),
    llmsFull: answer("/llms-full.txt", 404, "not found", "text/html"),
    edge: { browser: home, crawlers: [] },
    elapsedMs: 0,
  };
}

const now = new Date("2026-11-21T00:00:00Z");

Deno.bench({
  name: "htmlparser2 tokenising only (floor)",
  group: "analyse 2MB",
  baseline: true,
  fn() {
    const p = new Parser({}, { decodeEntities: true });
    p.write(html);
    p.end();
  },
});

Deno.bench({
  name: "parse + analyse (every signal, score, fixes)",
  group: "analyse 2MB",
  fn() {
    analyseSnapshot(snapshot(), null, now);
  },
});
