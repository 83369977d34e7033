/**
 * Fetches what a scan needs, in parallel, through the guarded fetcher, and parses the home page
 * once. Every signal then reads the same {@link Snapshot}.
 */
import { FetchError, type FetchOptions, type GuardedFetcher } from "../../kit/net/types.ts";
import { extractPageFacts } from "../html/page_facts.ts";
import type { Target } from "../../kit/net/target.ts";
import type { PageFacts } from "../html/types.ts";
import {
  BROWSER_USER_AGENT,
  PROBE_BYTES,
  PROBE_TIMEOUT_MS,
  probedCrawlers,
  PROBES_BUDGET_MS,
} from "./edge_probe.ts";
import { parseRobotsTxt } from "./robots.ts";
import { readSitemap, sitemapKind } from "./sitemap.ts";
import { looksLikeHtml } from "../../kit/net/decode.ts";
export { looksLikeHtml } from "../../kit/net/decode.ts";
import type { FetchOutcome, Snapshot } from "./snapshot_types.ts";

/** The steps of a visibility scan, as it reports them (its progress card places a scan by them). */
export type VisibilityStep =
  | "fetching"
  | "parsing"
  | "sitemaps"
  | "offsite"
  | "sampling"
  | "rendering"
  | "scoring";

/** Progress callback: the step's typed id, and a short human-readable text of it. */
export type ProgressFn = (step: VisibilityStep, text: string) => void;

/** Size caps per file: robots.txt is read up to the RFC's 500 KiB minimum, probes need little. */
const CAPS = {
  robots: 512 * 1024,
  llms: 1024 * 1024,
  probe: 256 * 1024,
} as const;

/** Wraps a fetch so that it never rejects: failures become typed outcomes. */
export async function attempt(
  fetcher: GuardedFetcher,
  url: string,
  options: FetchOptions,
): Promise<FetchOutcome> {
  try {
    return { ok: true, result: await fetcher.fetch(url, options) };
  } catch (error) {
    if (error instanceof FetchError) return { ok: false, error };
    return {
      ok: false,
      error: new FetchError("network", error instanceof Error ? error.message : String(error), url),
    };
  }
}

/** True when a fetch answered 2xx. */
export function isOk(outcome: FetchOutcome): boolean {
  return outcome.ok && outcome.result.status >= 200 && outcome.result.status < 300;
}

/**
 * Takes the snapshot of a site: home page, robots.txt, sitemap, llms.txt, llms-full.txt and the
 * edge probes (the home page with a browser's and each probed crawler's User-Agent, edge_probe.ts),
 * all started at once; files are re-read on the home page's final origin only when a redirect
 * moved the site and the file did not follow.
 */
export async function takeSnapshot(
  target: Target,
  deps: {
    fetcher: GuardedFetcher;
    signal?: AbortSignal;
    onProgress?: ProgressFn;
    /** Called as soon as the home page is parsed, so dependent work (off-site checks) can start. */
    onParsed?: (facts: PageFacts, finalUrl: string, body: string) => void;
  },
): Promise<Snapshot> {
  const started = performance.now();
  const { fetcher, signal } = deps;
  const progress = deps.onProgress ?? (() => {});
  const get = (url: string, options: FetchOptions = {}) =>
    attempt(fetcher, url, { signal, ...options });
  const at = (origin: string, path: string) => new URL(path, origin).href;
  const startOrigin = new URL(target.url).origin;

  progress("fetching", `fetching ${target.url} and its robots.txt, sitemap and llms.txt`);
  const homeP = get(target.url);
  const robotsP = get(at(startOrigin, "/robots.txt"), { maxBytes: CAPS.robots });
  const defaultSitemapP = get(at(startOrigin, "/sitemap.xml"));
  const llmsP = get(at(startOrigin, "/llms.txt"), { maxBytes: CAPS.llms });
  const llmsFullP = get(at(startOrigin, "/llms-full.txt"), { maxBytes: CAPS.probe });
  const home = await homeP;
  // The edge probes: the home page's final URL once per probed User-Agent, small bodies, short
  // time budgets, one redirect at most, inside the politeness limit of 2 requests in flight. Only
  // when the home page answered: without an answer there is nothing to compare with, and a
  // hostile redirect chain is not walked again per User-Agent.
  const edgeP = probeEdge(home, target.url, fetcher, signal);
  // One more request of the home page, asking for Markdown (content negotiation), small and quick.
  const markdownP = home.ok
    ? get(home.result.finalUrl, {
      headers: { accept: "text/markdown" },
      maxBytes: PROBE_BYTES,
      timeoutMs: PROBE_TIMEOUT_MS,
      maxRedirects: 1,
    })
    : Promise.resolve(undefined);
  progress("parsing", "parsing the home page");
  const homeOrigin = home.ok ? new URL(home.result.finalUrl).origin : startOrigin;
  // A site that moved (apex -> www, http -> https) may serve its files only on the new origin.
  const onHomeOrigin = async (p: Promise<FetchOutcome>, path: string, maxBytes?: number) => {
    const first = await p;
    if (homeOrigin === startOrigin) return first;
    if (first.ok && new URL(first.result.finalUrl).origin === homeOrigin) return first;
    return get(at(homeOrigin, path), maxBytes ? { maxBytes } : {});
  };
  const robotsDone = onHomeOrigin(robotsP, "/robots.txt", CAPS.robots);
  /** A sitemap index: its first child sitemaps are fetched too (bounded). */
  const withChildren = async (entry: Snapshot["sitemap"]): Promise<Snapshot["sitemap"]> => {
    if (!entry.outcome.ok || !isOk(entry.outcome)) return entry;
    if (sitemapKind(entry.outcome.result.body) !== "sitemapindex") return entry;
    const report = readSitemap(entry.outcome.result.body, new URL(entry.url).hostname);
    const childUrls = report.childLocs.slice(0, MAX_CHILD_SITEMAPS);
    const children = await Promise.all(
      childUrls.map(async (url) => ({ url, outcome: await get(url) })),
    );
    return { ...entry, children };
  };
  const sitemapDone = (async (): Promise<Snapshot["sitemap"]> => {
    const robots = await robotsDone;
    const declared = robots.ok && robots.result.status < 300
      ? sitemapLines(robots.result.body, robots.result.finalUrl)
      : [];
    const defaultUrl = at(homeOrigin, "/sitemap.xml");
    const defaultOutcome = () => onHomeOrigin(defaultSitemapP, "/sitemap.xml");
    const fetchOne = (url: string) =>
      url === defaultUrl || url === at(startOrigin, "/sitemap.xml") ? defaultOutcome() : get(url);
    if (!declared.length) {
      return withChildren({ url: defaultUrl, source: "default", outcome: await defaultOutcome() });
    }
    // Every Sitemap line counts: the first that answers with a sitemap is the one judged, so one
    // bad entry does not fail a site whose others are good.
    progress("sitemaps", "fetching the sitemaps named in robots.txt");
    // Fetched at once; judged in file order.
    const urls = declared.slice(0, MAX_SITEMAPS);
    const outcomes = await Promise.all(urls.map(fetchOne));
    const tried: { url: string; status: string }[] = [];
    for (let i = 0; i < urls.length; i++) {
      const outcome = outcomes[i];
      if (isUsableSitemap(outcome)) {
        return withChildren({ url: urls[i], source: "robots", outcome, tried });
      }
      tried.push({
        url: urls[i],
        status: outcome.ok ? `HTTP ${outcome.result.status}` : outcome.error.kind,
      });
    }
    return { url: urls[0], source: "robots", outcome: outcomes[0], tried: tried.slice(1) };
  })();

  let facts: PageFacts | null = null;
  let parseMs = 0;
  if (home.ok && looksLikeHtml(home.result.headers["content-type"], home.result.body)) {
    const t0 = performance.now();
    const parsed = extractPageFacts(home.result.body, home.result.finalUrl);
    parseMs = performance.now() - t0;
    facts = parsed;
    deps.onParsed?.(parsed, home.result.finalUrl, home.result.body);
  }
  const [robots, sitemap, llms, llmsFull, edge, markdown] = await Promise.all([
    robotsDone,
    sitemapDone,
    onHomeOrigin(llmsP, "/llms.txt", CAPS.llms),
    onHomeOrigin(llmsFullP, "/llms-full.txt", CAPS.probe),
    edgeP,
    markdownP,
  ]);
  return {
    target,
    home,
    facts,
    parseMs,
    robots,
    sitemap,
    llms,
    llmsFull,
    edge,
    ...(markdown ? { markdown } : {}),
    elapsedMs: performance.now() - started,
  };
}

/** The edge probes of a home page that answered; failed outcomes, not sent, when it did not. */
function probeEdge(
  home: FetchOutcome,
  url: string,
  fetcher: GuardedFetcher,
  signal?: AbortSignal,
): Promise<Snapshot["edge"]> {
  const crawlers = probedCrawlers();
  if (!home.ok) {
    const skipped: FetchOutcome = {
      ok: false,
      error: new FetchError("network", "not probed: the home page did not answer", url),
    };
    return Promise.resolve({
      browser: skipped,
      crawlers: crawlers.map((c) => ({ token: c.token, outcome: skipped })),
    });
  }
  const budget = AbortSignal.timeout(PROBES_BUDGET_MS);
  const probeSignal = signal ? AbortSignal.any([signal, budget]) : budget;
  const probe = (userAgent: string) =>
    attempt(fetcher, home.result.finalUrl, {
      signal: probeSignal,
      userAgent,
      maxBytes: PROBE_BYTES,
      timeoutMs: PROBE_TIMEOUT_MS,
      maxRedirects: 1,
    });
  const browser = probe(BROWSER_USER_AGENT);
  const answers = crawlers.map(async (c) => ({
    token: c.token,
    outcome: await probe(c.userAgent),
  }));
  return Promise.all([browser, Promise.all(answers)]).then(([b, a]) => ({
    browser: b,
    crawlers: a,
  }));
}

/** How many Sitemap lines of robots.txt are tried, and how many children of an index fetched. */
const MAX_SITEMAPS = 5;
const MAX_CHILD_SITEMAPS = 3;

/** The Sitemap lines of robots.txt as absolute http(s) URLs, in file order, deduplicated. */
function sitemapLines(body: string, base: string): string[] {
  const out: string[] = [];
  for (const value of parseRobotsTxt(body).sitemaps) {
    try {
      const u = new URL(value, base);
      if ((u.protocol === "http:" || u.protocol === "https:") && !out.includes(u.href)) {
        out.push(u.href);
      }
    } catch {
      // A malformed line is skipped; the others still count.
    }
  }
  return out;
}

/** A 2xx answer that holds a urlset or sitemapindex with at least one <loc>. */
function isUsableSitemap(outcome: FetchOutcome): boolean {
  if (!outcome.ok || !isOk(outcome)) return false;
  return sitemapKind(outcome.result.body) !== "invalid" && /<loc>/i.test(outcome.result.body);
}
