/**
 * The AI visibility scan engine: normalise the target, take the snapshot, score it, check off-site
 * presence, and return a ScanRecord that matches the API contract. Usable as a library:
 *
 * @example
 * ```ts
 * import { loadConfig } from "../../kit/config.ts";
 * import { scanSite } from "./scan.ts";
 * const { record } = await scanSite("example.com", { config: loadConfig() });
 * console.log(record.result?.score, record.result?.grade);
 * ```
 */
import type { Config } from "../../kit/config.ts";
import { normaliseTarget, type Target } from "../../kit/net/target.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { checkOffSite, defaultOffSiteCache } from "../offsite/offsite.ts";
import type { OffSiteCache } from "../offsite/cache.ts";
import type { PageFacts } from "../html/types.ts";
import type { ScanContext } from "./check.ts";
import { pageStructure } from "../structured/page_structure.ts";
import { type OffSite, type Result, type ScanRecord, ScanRecordSchema } from "./record.ts";
import { analyseRobots } from "./robots.ts";
import { scannerRefusal } from "./edge_probe.ts";
import { scoreSite } from "./score.ts";
import { type ProgressFn, takeSnapshot } from "./snapshot.ts";
import type { Snapshot } from "./snapshot_types.ts";
import { auditSite } from "./audit/audit.ts";
import { type PoliteClock, politeFetcher } from "./audit/polite.ts";
import type { AuditResult } from "./audit/types.ts";
import type { RenderView } from "../render/view.ts";
import { renderStep } from "./render_step.ts";
import { openEarly } from "../render/browser.ts";

/**
 * Scores a snapshot whose home page was fetched and parsed: the pure, synchronous part of a scan
 * (what the "analyse a 2 MB page" benchmark measures, together with the parse).
 */
export function analyseSnapshot(
  snapshot: Snapshot,
  offSite: OffSite | null,
  now: Date,
  audit?: AuditResult,
  render?: RenderView,
): Result {
  const home = snapshot.home;
  if (!home.ok || !snapshot.facts) throw new Error("analyseSnapshot needs a parsed home page");
  const facts = snapshot.facts;
  // Worked out once per page: the off-site lookups and the audit asked for the same structure.
  const page = pageStructure(
    facts,
    home.result.body,
    home.result.finalUrl,
    snapshot.target.domain,
  );
  const ctx: ScanContext = {
    snapshot,
    facts,
    robots: analyseRobots(snapshot.robots, home.result.finalUrl),
    nodes: page.jsonLdNodes,
    items: page.nodes,
    siteName: page.siteName,
    pageUrl: home.result.finalUrl,
    offSite,
    now,
    audit,
    render,
  };
  return scoreSite(ctx);
}

/** What a scan needs besides the target. */
export interface ScanDeps {
  config: Config;
  /** Defaults to a fetcher built from the config (closed after the scan). */
  fetcher?: GuardedFetcher;
  /** Off-site lookups are cached here; defaults to one cache per process. */
  offSiteCache?: OffSiteCache;
  /** The clock (tests inject one). */
  now?: () => Date;
  onProgress?: ProgressFn;
  /** Aborts the scan (in addition to config.scanTimeoutMs). */
  signal?: AbortSignal;
  /** Pages the site audit samples, home included (1-50); defaults to config.audit.pages. */
  pages?: number;
  /** The clock the site's Crawl-delay is kept by (tests inject one); the machine's by default. */
  politeClock?: PoliteClock;
}

/** A finished scan: the public record, plus what the record does not carry. */
export interface ScanOutcome {
  record: ScanRecord;
  /** Why the scan failed, when record.status is "failed". */
  failure: string | null;
  /** The snapshot the report was computed from (for the CLI and tests). */
  snapshot: Snapshot | null;
  /** The site audit's sample (for the CLI and tests); null when the scan failed before it. */
  audit?: AuditResult | null;
}

/**
 * Scans a site. Never throws for anything the site does: a home page that cannot be fetched gives
 * a "failed" record with result null. Throws {@link InvalidTargetError} for input that names no
 * public domain.
 */
export async function scanSite(input: string | Target, deps: ScanDeps): Promise<ScanOutcome> {
  const target = typeof input === "string" ? normaliseTarget(input) : input;
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const progress = deps.onProgress ?? (() => {});
  const fetcher = deps.fetcher ?? createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    requestTimeoutMs: config.requestTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
  });
  const scanStarted = performance.now();
  // A rendering scan has the render budget on top of the scan's time (docs/rendering.md).
  const timeoutMs = config.scanTimeoutMs + (target.render ? config.render.budgetMs : 0);
  const signal = deps.signal
    ? AbortSignal.any([deps.signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  // Every request to the scanned site goes through the politeness limits (at most 2 in flight,
  // Crawl-delay once known); the off-site lookups use the fetcher as it is.
  const site = politeFetcher(fetcher, target.domain, 2, deps.politeClock);
  // The browser starts while the site is read, so its start-up overlaps the raw scan; closed in
  // `finally` when the scan ends before the render takes it.
  const browser = openEarly(target.render === true, config.render.browser);
  const pages = Math.min(50, Math.max(1, Math.floor(deps.pages ?? config.audit?.pages ?? 1)));
  const failed = (failure: string, snapshot: Snapshot | null): ScanOutcome => ({
    record: ScanRecordSchema.parse({
      domain: target.domain,
      status: "failed",
      scannedAt: now().toISOString(),
      result: null,
      offSite: null,
    }),
    failure,
    snapshot,
  });
  try {
    let offSiteP: Promise<OffSite | null> | null = null;
    const startOffSite = (facts: PageFacts, finalUrl: string, body: string) => {
      progress("offsite", "checking Wikidata, Wikipedia and Common Crawl");
      offSiteP = checkOffSite({
        domain: target.domain,
        // The one corroborated site name (every markup format, metas, title), as the report uses.
        name: pageStructure(facts, body, finalUrl, target.domain).siteName,
        fetcher,
        config,
        cache: deps.offSiteCache ?? defaultOffSiteCache,
        signal,
        now: () => now().getTime(),
      }).catch(() => null);
    };
    const snapshot = await takeSnapshot(target, {
      fetcher: site,
      signal,
      onProgress: progress,
      onParsed: startOffSite,
    });
    const home = snapshot.home;
    if (!home.ok) {
      return failed(`the home page could not be fetched: ${home.error.message}`, snapshot);
    }
    const refusal = scannerRefusal(home, snapshot.edge);
    if (refusal) return failed(refusal, snapshot);
    if (home.result.status >= 400 || home.result.status < 200) {
      return failed(`the home page answered HTTP ${home.result.status}`, snapshot);
    }
    if (home.result.status >= 300) {
      return failed(
        `the home page answered a redirect (${home.result.status}) without a usable Location`,
        snapshot,
      );
    }
    if (!snapshot.facts) {
      return failed(
        `the home page is not HTML (Content-Type: ${
          home.result.headers["content-type"] ?? "none"
        })`,
        snapshot,
      );
    }
    const facts = snapshot.facts;
    // The sample is read while the off-site lookups run; one budget for all of it, ending well
    // before the scan's own deadline so the report is built from what arrived.
    let audit = await auditSite({
      snapshot,
      facts,
      fetcher: site,
      pages,
      deadline: Math.min(
        performance.now() + (config.audit?.budgetMs ?? 12_000),
        scanStarted + config.scanTimeoutMs * 0.8,
      ),
      maxCrawlDelayMs: config.audit?.maxCrawlDelayMs ?? 5_000,
      userAgent: config.userAgent,
      maxBytes: config.maxBodyBytes,
      siteName: pageStructure(facts, home.result.body, home.result.finalUrl, target.domain)
        .siteName,
      now: now(),
      signal,
      onProgress: progress,
    });
    let render: RenderView | undefined;
    if (target.render) {
      progress("rendering", "rendering the pages in a browser");
      ({ view: render, audit } = await renderStep({
        config,
        snapshot,
        audit,
        fetcher: site,
        signal,
        onProgress: (text) => progress("rendering", text),
        browser,
      }));
    }
    const offSite = offSiteP ? await (offSiteP as Promise<OffSite | null>) : null;
    progress("scoring", "scoring");
    const result = analyseSnapshot(snapshot, offSite, now(), audit, render);
    return {
      record: ScanRecordSchema.parse({
        domain: target.domain,
        status: "ok",
        scannedAt: now().toISOString(),
        result,
        offSite,
        ...(render ? { render } : {}),
      }),
      failure: null,
      snapshot,
      audit,
    };
  } finally {
    await browser?.release();
    if (!deps.fetcher) await fetcher.close();
  }
}
