/** Builds a scan result from a home page, robots.txt and headers given in memory (no network). */
import assert from "node:assert/strict";
import { analyseSnapshot } from "../../lib/engines/visibility/scan.ts";
import type { FetchOutcome, Snapshot } from "../../lib/engines/visibility/snapshot_types.ts";
import type { Result, Signal } from "../../lib/engines/visibility/record.ts";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";

const NOW = new Date("2026-11-21T12:00:00Z");
const ORIGIN = "https://news.example";

function res(path: string, body: string, status = 200, headers: Record<string, string> = {}) {
  const url = new URL(path, ORIGIN).href;
  return {
    ok: true as const,
    result: {
      url,
      finalUrl: url,
      status,
      headers: { "content-type": "text/html; charset=utf-8", ...headers },
      body,
      bytes: body.length,
      truncated: false,
      redirects: [],
      ttfbMs: 5,
      totalMs: 10,
      remoteAddress: "127.0.0.1",
    },
  };
}

const missing = (path: string): FetchOutcome =>
  res(path, "<html><body>Not found</body></html>", 404);

/** A home page with enough text, headings and landmarks that only the thing under test varies. */
export function page(head = "", body = ""): string {
  const para = "<p>" + "Reporting on the city, its people and its institutions. ".repeat(12) +
    "</p>";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local news | News Example</title>
<meta name="viewport" content="width=device-width">${head}</head><body><header><nav><a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>
<main><h1>Today</h1><h2>City</h2>${para}<h2>Region</h2>${para}${body}</main><footer>News Example</footer></body></html>`;
}

interface Inputs {
  html?: string;
  robots?: string;
  homeHeaders?: Record<string, string>;
  sitemap?: FetchOutcome;
  llms?: FetchOutcome;
  /** Alters the parsed facts (to simulate a defect tripped by some page). */
  alterFacts?: (facts: Snapshot["facts"] & object) => void;
}

export function analyse(inputs: Inputs): Result {
  const html = inputs.html ?? page();
  const home = res("/", html, 200, inputs.homeHeaders ?? {});
  const facts = extractPageFacts(html, `${ORIGIN}/`);
  inputs.alterFacts?.(facts);
  const snapshot: Snapshot = {
    target: { domain: "news.example", host: "news.example", url: `${ORIGIN}/` } as Snapshot[
      "target"
    ],
    home,
    facts,
    parseMs: 1,
    robots: inputs.robots === undefined
      ? missing("/robots.txt")
      : res("/robots.txt", inputs.robots, 200, { "content-type": "text/plain" }),
    sitemap: {
      url: `${ORIGIN}/sitemap.xml`,
      source: "default",
      outcome: inputs.sitemap ?? missing("/sitemap.xml"),
    },
    llms: inputs.llms ?? missing("/llms.txt"),
    llmsFull: missing("/llms-full.txt"),
    edge: { browser: home, crawlers: [] },
    elapsedMs: 10,
  };
  return analyseSnapshot(snapshot, null, NOW);
}

export function signal(r: Result, id: string): Signal {
  const s = r.pillars.flatMap((p) => p.signals).find((x) => x.id === id);
  assert.ok(s, `signal ${id}`);
  return s;
}

/** A valid llms.txt of the test site, as the fetcher returns it. */
export function validLlms() {
  const body =
    "# News Example\n\n> Local news.\n\n## Pages\n\n- [About](https://news.example/about): who we are\n";
  return {
    url: "https://news.example/llms.txt",
    finalUrl: "https://news.example/llms.txt",
    status: 200,
    headers: { "content-type": "text/plain" },
    body,
    bytes: body.length,
    truncated: false,
    redirects: [],
    ttfbMs: 1,
    totalMs: 1,
    remoteAddress: "127.0.0.1",
  };
}
