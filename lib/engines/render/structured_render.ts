/**
 * The rendered page for the Schema Markup Generator: the page is rendered
 * (lib/engines/render/session.ts) under the site's robots.txt and politeness
 * (lib/engines/render/site_policy.ts), and its rendered DOM is read by the same extraction as the
 * server HTML. What scripts add, change or remove is decided by merging the two
 * (lib/engines/structured/merged_view.ts, in the scan's `resultOf`), so every part of the result
 * reads one view.
 */
import type { Config } from "../../kit/config.ts";
import type { FetchResult, GuardedFetcher } from "../../kit/net/types.ts";
import { type Extraction, extractPage } from "../structured/extract.ts";
import type { RenderAttempt } from "../structured/page_view.ts";
import type { EarlyBrowser } from "./browser.ts";
import { scanHostsOf } from "./request_gate.ts";
import { renderPages } from "./session.ts";
import { type RobotsReader, sitePolicy } from "./site_policy.ts";
import { PAGE_LIMITS } from "./site_view.ts";

/** What rendering one page for its structured data needs. */
export interface StructuredRenderInput {
  config: Config;
  /** The page's final URL (after the scan's own fetch). */
  pageUrl: string;
  /** The scan's own fetch of the page: its hosts are the only ones SCAN_RESOLVE applies to. */
  scanned: Pick<FetchResult, "url" | "finalUrl" | "redirects">;
  domain: string;
  fetcher: GuardedFetcher;
  /** robots.txt's rules for our crawler (the one RFC 9309 parser, handed in). */
  readRobots: RobotsReader;
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  /** A browser the scan started opening while it fetched the page (else one is opened here). */
  browser?: EarlyBrowser;
}

/** Renders the page and reads its rendered DOM. Never throws. */
export async function renderStructuredData(
  input: StructuredRenderInput,
): Promise<RenderAttempt> {
  const { config } = input;
  const policy = await sitePolicy(
    input.fetcher,
    input.pageUrl,
    config.userAgent,
    config.audit.maxCrawlDelayMs,
    input.readRobots,
    input.signal,
  );
  const none = (
    status: "unavailable" | "failed",
    reason: string,
    browser: string | null,
  ): RenderAttempt => ({ status, reason, browser, extraction: null });
  if (policy.refusal) return none("unavailable", policy.refusal, null);
  if (!policy.robotsAllows(input.pageUrl)) {
    return none("failed", "robots.txt disallows our crawler on this page", null);
  }
  const session = await renderPages([input.pageUrl], {
    settings: { ...config.render, pages: 1 },
    gate: {
      fetcher: policy.fetcher,
      scanHosts: scanHostsOf(input.scanned),
      isSite: policy.isSite,
      robotsAllows: policy.robotsAllows,
      maxRequests: PAGE_LIMITS.requests,
      maxPageBytes: PAGE_LIMITS.bytes,
      maxBodyBytes: config.maxBodyBytes,
      requestTimeoutMs: config.requestTimeoutMs,
    },
    userAgent: config.userAgent,
    signal: input.signal,
    onProgress: input.onProgress,
    browser: input.browser,
  }, (render): Extraction | string => {
    if (render.state !== "rendered" || render.html === null) {
      return render.reason ?? "the page could not be rendered";
    }
    return extractPage(render.html, render.document?.finalUrl ?? input.pageUrl, input.domain);
  });
  const page = session.pages[0];
  if (session.status === "unavailable") return none("unavailable", session.reason ?? "", null);
  if (!page || typeof page === "string") {
    return none("failed", page ?? session.reason ?? "the page was not rendered", session.browser);
  }
  return { status: "rendered", reason: null, browser: session.browser, extraction: page };
}
