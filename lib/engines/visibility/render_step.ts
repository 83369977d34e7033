/**
 * The visibility scan's rendering step (docs/rendering.md): after the site audit, the home page
 * and the sampled pages that answered with HTML are rendered (lib/engines/render/site_view.ts) through the
 * scan's own polite fetcher, with robots.txt obeyed for our agent on every request to the site;
 * then the audit's JavaScript-shell verdicts take the rendered evidence (the one rule:
 * lib/engines/visibility/client_rendering.ts).
 */
import type { Config } from "../../kit/config.ts";
import type { EarlyBrowser } from "../render/browser.ts";
import { scanHostsOf } from "../render/request_gate.ts";
import { notRendered, renderSite } from "../render/site_view.ts";
import type { RenderView } from "../render/view.ts";
import { CRAWLER_RENDERING } from "./crawlers.ts";
import { renderedPageFor, renderedVerdict, withRendered } from "./client_rendering.ts";
import { analyseRobots, parseRobotsTxt, productToken, robotsVerdict } from "./robots.ts";
import { crawlDelayFor } from "./audit/polite.ts";
import { crawlDelayRefusal, type RobotsRules } from "../render/site_policy.ts";
import type { Snapshot } from "./snapshot_types.ts";
import type { PoliteFetcher } from "./audit/polite.ts";
import type { AuditResult, PageReport } from "./audit/types.ts";

/** What the step needs from the scan. */
export interface RenderStepInput {
  config: Config;
  snapshot: Snapshot;
  audit: AuditResult;
  /** The scan's fetcher, polite to the site (the render's requests share its limits). */
  fetcher: PoliteFetcher;
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  /** The browser the scan started opening when it began (lib/engines/render/browser.ts openEarly). */
  browser?: EarlyBrowser;
}

/** Renders the site; returns the view and the audit with the rendered verdicts. */
export async function renderStep(
  input: RenderStepInput,
): Promise<{ view: RenderView; audit: AuditResult }> {
  const { config, snapshot, audit } = input;
  const home = snapshot.home;
  if (!home.ok) throw new Error("renderStep needs a fetched home page");
  // A Crawl-delay longer than the scan waits: the audit read no more pages, and a render (a
  // request per script, style and data file) could not keep it either.
  if (audit.delayLimited && audit.crawlDelaySec !== null) {
    const reason = crawlDelayRefusal(audit.crawlDelaySec, config.audit.maxCrawlDelayMs);
    return { view: notRendered("unavailable", reason, config.render, CRAWLER_RENDERING), audit };
  }
  const homeUrl = home.result.finalUrl;
  const robots = analyseRobots(snapshot.robots, homeUrl);
  const parsed = robots.state === "ok" && snapshot.robots.ok
    ? parseRobotsTxt(snapshot.robots.result.body)
    : null;
  const ourToken = productToken(config.userAgent) || config.userAgent;
  const homeHost = new URL(homeUrl).hostname.toLowerCase();
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, "");
  const urls = [
    homeUrl,
    ...audit.pages.filter((p) =>
      p.source !== "home" && p.state === "read" && p.httpStatus !== null &&
      p.httpStatus >= 200 && p.httpStatus < 300
    ).map((p) => p.url),
  ];
  const view = await renderSite({
    settings: config.render,
    urls,
    fetcher: input.fetcher,
    // SCAN_RESOLVE reaches the hosts the scan's own fetch of the home page went to, nothing else.
    scanHosts: scanHostsOf(home.result),
    isSite: (host) => bare(host) === bare(snapshot.target.domain),
    // robots.txt is the home origin's: it rules that host; a 5xx robots.txt closes the site.
    robotsAllows: (url) => {
      if (robots.state === "server_error") return false;
      if (!parsed || new URL(url).hostname.toLowerCase() !== homeHost) return true;
      return robotsVerdict(parsed, ourToken, url).allowed;
    },
    userAgent: config.userAgent,
    maxBodyBytes: config.maxBodyBytes,
    requestTimeoutMs: config.requestTimeoutMs,
    crawlers: CRAWLER_RENDERING,
    verdict: renderedVerdict,
    signal: input.signal,
    onProgress: input.onProgress,
    browser: input.browser,
  });
  return { view, audit: withRenderedEvidence(audit, view) };
}

/**
 * The sampled pages' JavaScript-shell verdicts with the rendered evidence: a page the render
 * showed to be thin loses its "JS shell", a page it showed to be a shell gains it. Pages not
 * rendered (failed, skipped, budget) keep the server HTML's verdict, which says it is one.
 */
export function withRenderedEvidence(audit: AuditResult, view: RenderView): AuditResult {
  const pages = audit.pages.map((page): PageReport => {
    const rendered = renderedPageFor(view, page.url);
    if (page.state !== "read" || !page.rendering || rendered?.state !== "rendered") return page;
    const rendering = withRendered(page.rendering, rendered);
    const label = rendering.kind === "shell"
      ? "JS shell"
      : rendering.kind === "thin"
      ? "thin text"
      : null;
    // The label takes the old one's place in the page's list (after its robots and noindex ones).
    const at = page.fails.findIndex((f) => f === "JS shell" || f === "thin text");
    const fails = page.fails.filter((f) => f !== "JS shell" && f !== "thin text");
    const before = at >= 0
      ? at
      : fails.filter((f) => f.startsWith("noindex") || f.startsWith("robots.txt")).length;
    if (label) fails.splice(before, 0, label);
    return { ...page, fails, rendering };
  });
  return { ...audit, pages };
}

/**
 * What a robots.txt tells our own crawler (its product token), read by this checker's RFC 9309
 * parser: the rules the Schema Markup Generator's render obeys (lib/engines/render/site_policy.ts takes
 * it from that service's scanner), so both services read robots.txt the same way.
 */
export function robotsForRender(robotsTxt: string, userAgent: string): RobotsRules {
  const parsed = parseRobotsTxt(robotsTxt);
  const token = productToken(userAgent) || userAgent;
  return {
    allows: (url) => robotsVerdict(parsed, token, url).allowed,
    crawlDelaySec: crawlDelayFor(robotsTxt, token),
  };
}
