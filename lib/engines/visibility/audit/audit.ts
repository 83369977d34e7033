/**
 * The site audit: after the home page's snapshot, read a representative sample of the site's
 * pages (sample.ts) politely (polite.ts: at most 2 requests in flight to the site, Crawl-delay
 * honoured up to a bound, robots.txt obeyed for our own User-Agent), analyse each as it arrives
 * (page.ts) and drop its HTML, all within one time budget; then check the llms.txt links that the
 * sample did not already answer. What arrived in time is what the report describes.
 */
import type { PageFacts } from "../../html/types.ts";
import { attempt } from "../snapshot.ts";
import type { ProgressFn } from "../snapshot.ts";
import type { FetchOutcome, Snapshot } from "../snapshot_types.ts";
import { analyseRobots, parseRobotsTxt, productToken, robotsVerdict } from "../robots.ts";
import { sitemapKind } from "../sitemap.ts";
import { llmsTxtLinks } from "../llms_txt.ts";
import { crawlDelayFor, type PoliteFetcher } from "./polite.ts";
import { collectCandidates, pickSample, samePage } from "./sample.ts";
import { fetchLlmsFiles, llmsCandidates } from "./llms_files.ts";
import { analysePage, type PageInput, unreadPage } from "./page.ts";
import type { AuditResult, PageReport } from "./types.ts";

/** llms.txt links fetched at most, beyond those the sample already read. */
export const MAX_LLMS_CHECKS = 5;
/** Pages fetched at once (the polite fetcher keeps the site at 2 in flight whatever this is). */
const PAGE_WORKERS = 2;

/** What the audit needs. */
export interface AuditDeps {
  snapshot: Snapshot;
  /** The home page's facts (already extracted by the snapshot). */
  facts: PageFacts;
  fetcher: PoliteFetcher;
  /** Pages to sample, the home page included (1 = home page only). */
  pages: number;
  /** When the audit must stop fetching (performance.now() time). */
  deadline: number;
  /** The longest Crawl-delay waited between pages, in ms. */
  maxCrawlDelayMs: number;
  /** Our own User-Agent (its product token is what robots.txt rules for us are read under). */
  userAgent: string;
  /** Body cap of a sampled page. */
  maxBytes: number;
  siteName: string | null;
  now: Date;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
}

/** Runs the audit. Never throws for anything the site does. */
export async function auditSite(deps: AuditDeps): Promise<AuditResult> {
  const started = performance.now();
  const { snapshot } = deps;
  const home = snapshot.home;
  if (!home.ok) throw new Error("auditSite needs a fetched home page");
  const homeUrl = home.result.finalUrl;
  const robotsState = analyseRobots(snapshot.robots, homeUrl).state;
  const robotsBody = robotsState === "ok" && snapshot.robots.ok ? snapshot.robots.result.body : "";
  const robots = robotsBody ? parseRobotsTxt(robotsBody) : null;
  const ourToken = productToken(deps.userAgent) || deps.userAgent;
  const base = {
    homeUrl,
    robots,
    robotsServerError: robotsState === "server_error",
    snapshot,
    siteName: deps.siteName,
    now: deps.now,
  };
  const pages: PageReport[] = [
    analysePage(
      { ...base, url: homeUrl, source: "home", inSitemap: false, role: null },
      home,
      deps.facts,
    ),
  ];
  const bodies = sitemapBodies(snapshot);
  const { candidates, total } = collectCandidates(bodies, deps.facts, homeUrl);
  pages[0].inSitemap = bodies.some((b) => {
    for (const m of b.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
      if (samePage(m[1], homeUrl)) return true;
    }
    return false;
  });
  const picked = pickSample(candidates, Math.max(0, deps.pages - 1));
  const crawlDelaySec = robotsBody ? crawlDelayFor(robotsBody, ourToken) : null;
  const delayMs = (crawlDelaySec ?? 0) * 1000;
  const delayLimited = delayMs > deps.maxCrawlDelayMs;
  if (!delayLimited && delayMs > 0) deps.fetcher.setDelay(delayMs);
  const inputs: PageInput[] = picked.map((c) => ({
    ...base,
    url: c.url,
    source: c.source,
    inSitemap: c.source === "sitemap",
    role: c.role,
  }));
  const reports: (PageReport | null)[] = inputs.map(() => null);
  const deadline = AbortSignal.timeout(Math.max(0, deps.deadline - performance.now()));
  const signal = deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline;
  let budgetHit = false;
  if (inputs.length) {
    deps.onProgress?.(
      "sampling",
      `reading ${inputs.length} sampled page${inputs.length > 1 ? "s" : ""}` +
        (crawlDelaySec ? ` (Crawl-delay ${crawlDelaySec} s)` : ""),
    );
  }
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      const input = inputs[i];
      if (!robotsAllowUs(robots, ourToken, input.url, base.robotsServerError)) {
        // The state says why it was not fetched; its fails list what it means for AI crawlers.
        reports[i] = unreadPage(input, "robots");
        continue;
      }
      if (delayLimited || signal.aborted) {
        budgetHit ||= !delayLimited;
        reports[i] = unreadPage(input, "budget");
        continue;
      }
      const outcome = await attempt(deps.fetcher, input.url, {
        signal,
        maxBytes: deps.maxBytes,
      });
      if (!outcome.ok && signal.aborted) {
        budgetHit = true;
        reports[i] = unreadPage(input, "budget");
        continue;
      }
      // Analysed now; the body goes out of scope with `outcome` at the next turn.
      reports[i] = analysePage(input, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAGE_WORKERS, inputs.length) }, worker));
  pages.push(...reports.map((r, i) => r ?? unreadPage(inputs[i], "budget")));
  const llmsLinks = await checkLlmsLinks(snapshot, pages, deps, signal, robots, ourToken);
  const llmsFiles = await fetchLlmsFiles(
    llmsCandidates(snapshot, pages),
    deps.fetcher,
    signal,
    (url) => robotsAllowUs(robots, ourToken, url, base.robotsServerError),
  );
  return {
    requested: deps.pages,
    pages,
    candidates: total,
    crawlDelaySec,
    delayLimited,
    budgetHit,
    budgetMs: Math.round(deps.deadline - started),
    elapsedMs: Math.round(performance.now() - started),
    llmsLinks,
    llmsFiles,
    maxInFlight: deps.fetcher.maxInFlight,
  };
}

function robotsAllowUs(
  robots: ReturnType<typeof parseRobotsTxt> | null,
  token: string,
  url: string,
  serverError: boolean,
): boolean {
  if (serverError) return false;
  return !robots || robotsVerdict(robots, token, url).allowed;
}

/** The sitemap bodies the snapshot read: the judged urlset, or an index's children. */
function sitemapBodies(snapshot: Snapshot): string[] {
  const ok = (o: FetchOutcome) =>
    o.ok && o.result.status >= 200 && o.result.status < 300 &&
    sitemapKind(o.result.body) === "urlset";
  const out: string[] = [];
  const main = snapshot.sitemap.outcome;
  if (ok(main) && main.ok) out.push(main.result.body);
  for (const child of snapshot.sitemap.children ?? []) {
    if (ok(child.outcome) && child.outcome.ok) out.push(child.outcome.result.body);
  }
  return out;
}

/**
 * The llms.txt links: those the sample read count as they answered; up to
 * {@link MAX_LLMS_CHECKS} others are fetched (a small GET) within the budget.
 */
async function checkLlmsLinks(
  snapshot: Snapshot,
  pages: PageReport[],
  deps: AuditDeps,
  signal: AbortSignal,
  robots: ReturnType<typeof parseRobotsTxt> | null,
  ourToken: string,
): Promise<AuditResult["llmsLinks"]> {
  const llms = snapshot.llms;
  if (!llms.ok || llms.result.status < 200 || llms.result.status >= 300) return null;
  if (/^\s*</.test(llms.result.body)) return null;
  const links = llmsTxtLinks(llms.result.body, llms.result.finalUrl);
  if (!links.length) return null;
  const broken: string[] = [];
  let checked = 0;
  const toFetch: string[] = [];
  for (const link of links) {
    const seen = pages.find((p) => p.state === "read" && samePage(p.url, link));
    if (seen) {
      checked++;
      if (seen.httpStatus === null || seen.httpStatus >= 300) broken.push(link);
    } else if (toFetch.length < MAX_LLMS_CHECKS) toFetch.push(link);
  }
  const homeHost = new URL(pages[0].url).hostname;
  await Promise.all(toFetch.map(async (link) => {
    // Our crawler obeys robots.txt on the site's own links too.
    if (new URL(link).hostname === homeHost && !robotsAllowUs(robots, ourToken, link, false)) {
      return;
    }
    if (signal.aborted) return;
    const outcome = await attempt(deps.fetcher, link, { signal, maxBytes: 1024 });
    // Aborted by the budget, or no answer in time: not observed, so neither counted nor broken.
    if (!outcome.ok && (signal.aborted || outcome.error.kind === "timeout")) return;
    checked++;
    if (!outcome.ok || outcome.result.status < 200 || outcome.result.status >= 300) {
      broken.push(link);
    }
  }));
  return { total: links.length, checked, broken };
}
