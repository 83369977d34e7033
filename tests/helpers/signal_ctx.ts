/**
 * Contexts for one signal's test (tests/visibility/signals/<pillar>/<name>_test.ts): a home page,
 * robots.txt, headers, sitemap, llms.txt, edge answers and off-site lookups given in memory, and a
 * site audit's sample built from a few page rows, so a test runs `signal.check(ctx)` and
 * `signal.fix(ctx, finding)` with no network. The clock is fixed.
 */
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import type { ScanContext } from "../../lib/engines/visibility/check.ts";
import type { FetchOutcome } from "../../lib/engines/visibility/snapshot_types.ts";
import type { OffSite } from "../../lib/engines/visibility/record.ts";
import type { AuditResult, PageReport } from "../../lib/engines/visibility/audit/types.ts";
import { analyseRobots } from "../../lib/engines/visibility/robots.ts";
import { probedCrawlers } from "../../lib/engines/visibility/edge_probe.ts";
import { flattenJsonLd } from "../../lib/engines/structured/page_graph.ts";
import { chooseSiteName } from "../../lib/engines/structured/site_name.ts";
import { readRendering } from "../../lib/engines/visibility/client_rendering.ts";
import { evaluate, type Finding, type SignalDef } from "../../lib/engines/visibility/signal.ts";
import type { Fix } from "../../lib/engines/visibility/record.ts";
import { FetchError } from "../../lib/kit/net/types.ts";

/** The fixed clock of signal tests. */
export const NOW = new Date("2026-11-26T12:00:00Z");
export const ORIGIN = "https://shop.example";

/** An HTTP answer in memory. */
export function answer(
  path: string,
  body: string,
  status = 200,
  headers: Record<string, string> = {},
  ttfbMs = 120,
): FetchOutcome {
  const url = new URL(path, ORIGIN).href;
  return {
    ok: true,
    result: {
      url,
      finalUrl: url,
      status,
      headers: { "content-type": "text/html; charset=utf-8", ...headers },
      body,
      bytes: body.length,
      truncated: false,
      redirects: [],
      ttfbMs,
      totalMs: ttfbMs + 10,
      remoteAddress: "192.0.2.1",
    },
  };
}

/** A fetch that failed (time-out). */
export function failed(path = "/"): FetchOutcome {
  return {
    ok: false,
    error: new FetchError("timeout", "timed out", new URL(path, ORIGIN).href),
  };
}

const notFound = (path: string) => answer(path, "<html><body>Not found</body></html>", 404);

/** A plain page with enough text, headings and landmarks that only the thing under test varies. */
export function page(head = "", body = ""): string {
  const para = "<p>" + "We roast coffee in small batches and ship it fresh across the country. "
    .repeat(12) +
    "</p>";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fresh coffee | Shop Example</title>
<meta name="viewport" content="width=device-width">${head}</head><body><header><nav><a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>
<main><h1>Coffee</h1><h2>Beans</h2>${para}<h2>Delivery</h2>${para}${body}</main><footer>Shop Example</footer></body></html>`;
}

/** What a home page context is built from; everything defaults to a plain, open site. */
export interface PageInputs {
  html?: string;
  /** robots.txt text; null: 404. An outcome is taken as it is (5xx, time-out). */
  robots?: string | null | FetchOutcome;
  homeHeaders?: Record<string, string>;
  /** Header lines kept apart, as the guarded fetcher keeps X-Robots-Tag's. */
  homeHeaderLines?: Record<string, string[]>;
  home?: Partial<{ status: number; ttfbMs: number; truncated: boolean; bytes: number }>;
  homeUrl?: string;
  sitemap?: FetchOutcome;
  sitemapSource?: "robots" | "default";
  llms?: FetchOutcome;
  llmsFull?: FetchOutcome;
  /** What the home page answers a request with `Accept: text/markdown` (default: not asked). */
  markdown?: FetchOutcome;
  /** What the edge answers OAI-SearchBot's User-Agent (the other probes get the home page). */
  edgeSearch?: FetchOutcome;
  /** What the edge answers GPTBot's User-Agent. */
  edgeTraining?: FetchOutcome;
  /** What the edge answers a crawler's User-Agent, by token (the others get the home page). */
  edge?: Record<string, FetchOutcome>;
  /** What the edge answers a browser's User-Agent (default: the home page). */
  browser?: FetchOutcome;
  offSite?: OffSite | null;
  audit?: AuditResult;
}

/** The ScanContext a signal sees for these inputs. */
export function pageCtx(inputs: PageInputs = {}): ScanContext {
  const html = inputs.html ?? page();
  const homeUrl = inputs.homeUrl ?? `${ORIGIN}/`;
  const home = answer(
    homeUrl,
    html,
    inputs.home?.status ?? 200,
    inputs.homeHeaders ?? {},
    inputs.home?.ttfbMs,
  );
  if (home.ok) {
    if (inputs.homeHeaderLines) home.result.headerLines = inputs.homeHeaderLines;
    home.result.truncated = inputs.home?.truncated ?? false;
    if (inputs.home?.bytes !== undefined) home.result.bytes = inputs.home.bytes;
  }
  const facts = extractPageFacts(html, homeUrl);
  const robots = inputs.robots === undefined || inputs.robots === null
    ? notFound("/robots.txt")
    : typeof inputs.robots === "string"
    ? answer("/robots.txt", inputs.robots, 200, { "content-type": "text/plain" })
    : inputs.robots;
  const nodes = flattenJsonLd(facts.jsonLd);
  return {
    snapshot: {
      target: { domain: new URL(homeUrl).hostname, host: new URL(homeUrl).hostname, url: homeUrl },
      home,
      facts,
      parseMs: 1,
      robots,
      sitemap: {
        url: `${ORIGIN}/sitemap.xml`,
        source: inputs.sitemapSource ?? "default",
        outcome: inputs.sitemap ?? notFound("/sitemap.xml"),
      },
      llms: inputs.llms ?? notFound("/llms.txt"),
      llmsFull: inputs.llmsFull ?? notFound("/llms-full.txt"),
      edge: {
        browser: inputs.browser ?? home,
        crawlers: probedCrawlers().map(({ token }) => ({
          token,
          outcome: inputs.edge?.[token] ??
            (token === "OAI-SearchBot" ? inputs.edgeSearch : undefined) ??
            (token === "GPTBot" ? inputs.edgeTraining : undefined) ?? home,
        })),
      },
      ...(inputs.markdown ? { markdown: inputs.markdown } : {}),
      elapsedMs: 10,
    },
    facts,
    robots: analyseRobots(robots, homeUrl),
    nodes,
    siteName: chooseSiteName(facts, nodes, new URL(homeUrl).hostname),
    pageUrl: homeUrl,
    offSite: inputs.offSite ?? null,
    now: NOW,
    audit: inputs.audit,
  };
}

/** One sampled page as the audit reports it: a read, healthy page unless told otherwise. */
export function pageReport(path: string, over: Partial<PageReport> = {}): PageReport {
  const html = page();
  return {
    url: new URL(path, ORIGIN).href,
    path,
    type: path === "/" ? "home" : "page",
    source: path === "/" ? "home" : "sitemap",
    inSitemap: path !== "/",
    state: "read",
    httpStatus: 200,
    fails: [],
    title: `Page ${path}`,
    description: `What ${path} is about, in a sentence of its own.`,
    canonical: "self",
    blockedFor: [],
    noindex: false,
    rendering: readRendering(extractPageFacts(html, new URL(path, ORIGIN).href)),
    structured: "valid",
    author: null,
    date: null,
    ...over,
  };
}

/** A site audit over these pages (home first). */
export function audit(pages: PageReport[], over: Partial<AuditResult> = {}): AuditResult {
  return {
    requested: 10,
    pages,
    candidates: pages.length + 3,
    crawlDelaySec: null,
    delayLimited: false,
    budgetHit: false,
    budgetMs: 12_000,
    elapsedMs: 900,
    llmsLinks: null,
    maxInFlight: 2,
    ...over,
  };
}

/** A context whose site audit read these pages (the home page's own inputs at their defaults). */
export function siteCtx(
  pages: PageReport[],
  over: Partial<AuditResult> = {},
  inputs: PageInputs = {},
): ScanContext {
  return pageCtx({ ...inputs, audit: audit(pages, over) });
}

/** The signal's finding; fails the test when the signal does not apply. */
export function found<D>(def: SignalDef<D>, ctx: ScanContext): Finding<D> {
  const f = def.check(ctx);
  if (!f) throw new Error(`${def.id} did not apply`);
  return f;
}

/** The signal's fix for a warn or fail (through the same path scoring takes). */
export function fixOf(def: SignalDef, ctx: ScanContext): Fix | null {
  return evaluate(def, ctx)?.fix ?? null;
}

/** The signal as the report shows it. */
export function reported(def: SignalDef, ctx: ScanContext) {
  const check = evaluate(def, ctx);
  if (!check) throw new Error(`${def.id} did not apply`);
  return check.signal;
}
