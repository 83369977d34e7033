/**
 * The visibility scan's rendering step (docs/rendering.md): after the site audit, the home page
 * and the sampled pages that answered with HTML are rendered (lib/render/site_view.ts) through the
 * scan's own polite fetcher, with robots.txt obeyed for our agent on every request to the site;
 * then the audit's JavaScript-only verdicts take the rendered evidence (lib/visibility/js_shell.ts).
 */
import type { Config } from "../config.ts";
import { renderSite } from "../render/site_view.ts";
import type { RenderView } from "../render/view.ts";
import { CRAWLER_RENDERING } from "./crawlers.ts";
import { withRenderedEvidence } from "./js_shell.ts";
import { analyseRobots, parseRobotsTxt, productToken, robotsVerdict } from "./robots.ts";
import type { Snapshot } from "./snapshot_types.ts";
import type { PoliteFetcher } from "./audit/polite.ts";
import type { AuditResult } from "./audit/types.ts";

/** What the step needs from the scan. */
export interface RenderStepInput {
  config: Config;
  snapshot: Snapshot;
  audit: AuditResult;
  /** The scan's fetcher, polite to the site (the render's requests share its limits). */
  fetcher: PoliteFetcher;
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
}

/** Renders the site; returns the view and the audit with the rendered verdicts. */
export async function renderStep(
  input: RenderStepInput,
): Promise<{ view: RenderView; audit: AuditResult }> {
  const { config, snapshot, audit } = input;
  const home = snapshot.home;
  if (!home.ok) throw new Error("renderStep needs a fetched home page");
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
    signal: input.signal,
    onProgress: input.onProgress,
  });
  return { view, audit: withRenderedEvidence(audit, view) };
}
