/**
 * The AI's-eye view of a site: its home page and sampled pages rendered in one session
 * (lib/engines/render/session.ts), each compared with its server HTML (lib/engines/render/compare.ts), with what
 * the crawler registry says about which crawlers render. Nothing here knows the visibility
 * checker: the scan hands in its fetcher, its robots.txt verdict and the registry's facts.
 */
import type { RenderSettings } from "../../kit/config.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { comparePage, type VerdictRule } from "./compare.ts";
import type { EarlyBrowser } from "./browser.ts";
import { renderPages } from "./session.ts";
import type { CrawlerRendering, RenderedPage, RenderView } from "./view.ts";
import { VIEW_CAPS } from "./view.ts";

/** Requests one page may have served, and the bytes of all of them together. */
export const PAGE_LIMITS = { requests: 100, bytes: 20 * 1024 * 1024 } as const;

/** What rendering a site needs. */
export interface SiteRenderInput {
  settings: RenderSettings;
  /** The pages to render, home page first (cut at settings.pages). */
  urls: string[];
  /** The scan's fetcher, polite to the site. */
  fetcher: GuardedFetcher;
  /** The hosts SCAN_RESOLVE applies to (lib/engines/render/request_gate.ts scanHostsOf). */
  scanHosts: readonly string[];
  /** The scanned site's host names. */
  isSite(host: string): boolean;
  /** robots.txt's verdict for our own agent. */
  robotsAllows(url: string): boolean;
  userAgent: string;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  /** What the crawler registry says about rendering. */
  crawlers: readonly CrawlerRendering[];
  /** How a page's two word counts judge it (the scan's JavaScript-shell rule). */
  verdict: VerdictRule;
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  /** A browser the scan started opening while it read the site (else one is opened here). */
  browser?: EarlyBrowser;
  /** The clock the render budget is kept by (tests inject one). */
  now?: () => number;
}

/** A view that says why nothing was rendered (and concludes nothing). */
export function notRendered(
  status: "unavailable" | "failed",
  reason: string,
  settings: Pick<RenderSettings, "budgetMs">,
  crawlers: readonly CrawlerRendering[],
): RenderView {
  return {
    status,
    reason,
    browser: null,
    budgetMs: settings.budgetMs,
    elapsedMs: 0,
    pages: [],
    crawlers: [...crawlers],
  };
}

/** Renders the pages and compares each with its server HTML. Never throws. */
export async function renderSite(input: SiteRenderInput): Promise<RenderView> {
  const urls = [...new Set(input.urls)].slice(0, Math.min(input.settings.pages, VIEW_CAPS.pages));
  const doNotRender = input.crawlers.filter((c) => !c.renders).map((c) => c.token);
  const session = await renderPages(urls, {
    settings: input.settings,
    gate: {
      fetcher: input.fetcher,
      scanHosts: input.scanHosts,
      isSite: input.isSite,
      robotsAllows: input.robotsAllows,
      maxRequests: PAGE_LIMITS.requests,
      maxPageBytes: PAGE_LIMITS.bytes,
      maxBodyBytes: input.maxBodyBytes,
      requestTimeoutMs: input.requestTimeoutMs,
    },
    userAgent: input.userAgent,
    signal: input.signal,
    onProgress: input.onProgress,
    browser: input.browser,
    now: input.now,
  }, (render) => comparePage(render, doNotRender, input.verdict));
  if (session.status === "unavailable" || session.status === "failed") {
    if (!session.pages.some((p) => p !== null)) {
      return {
        ...notRendered(session.status, session.reason ?? "", input.settings, input.crawlers),
        browser: session.browser,
        elapsedMs: session.elapsedMs,
      };
    }
  }
  const pages: RenderedPage[] = session.pages.map((page, i) =>
    page ?? skipped(urls[i], session.reason ?? "the render budget ran out")
  );
  const renderedAll = pages.every((p) => p.state === "rendered");
  return {
    status: session.status === "failed" ? "partial" : renderedAll ? "rendered" : "partial",
    reason: renderedAll ? null : session.reason ?? firstReason(pages),
    browser: session.browser,
    budgetMs: input.settings.budgetMs,
    elapsedMs: session.elapsedMs,
    pages,
    crawlers: [...input.crawlers],
  };
}

function skipped(url: string, reason: string): RenderedPage {
  return {
    url,
    state: "skipped",
    reason,
    raw: null,
    rendered: null,
    verdict: "unknown",
    onlyAfterScripts: null,
    changed: [],
    requests: { served: 0, refused: 0, failed: 0, refusedKinds: {} },
    missed: `Not rendered (${reason}); nothing is concluded about this page.`,
  };
}

function firstReason(pages: RenderedPage[]): string | null {
  const failed = pages.filter((p) => p.state !== "rendered");
  return failed.length
    ? `${failed.length} of ${pages.length} pages were not rendered (${failed[0].reason})`
    : null;
}
