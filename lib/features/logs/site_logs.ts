/**
 * The feature for the server: reading an account's upload (in a worker) into its site's stored
 * aggregates, and the report of a site's logs joined with what the service knows of the site: its
 * robots.txt as fetched now (through the guarded fetcher), its sampled pages from the latest scan
 * (the home page and the sitemap's pages), and the pages assistants cited in the account's answer
 * presence runs. Built once per app (`logsOf`).
 */
import type { Config } from "../../kit/config.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import type { Store } from "../../kit/storage/store.ts";
import { keepFrom } from "./aggregate.ts";
import type { LogFormatId } from "./formats.ts";
import { loadRanges, memoryRangeCache, type RangeCache } from "./ip_ranges.ts";
import { LogsStore } from "./store.ts";
import type { ReadSummary } from "./read_log.ts";
import { type LogReport, logReport, observedColumn } from "./report.ts";
import type { ObservedColumn } from "../../service.ts";
import { accountSiteLogsPath } from "../../kit/report_urls.ts";
import { readInWorker, reportInWorker } from "./worker_reader.ts";
import { UploadTracker } from "./upload_tracker.ts";
import { RANGE_LISTS } from "./verify_sources.ts";

/** What the feature needs of the app. */
export interface LogsAppDeps {
  config: Config;
  store: Store;
  service: { name: string };
  now: () => number;
  /** The pages assistants cited in the account's answer runs (lib/kit/web/context.ts AppDeps). */
  citedPagesOf?: (
    accountId: string,
    domain: string,
  ) => Promise<{ assistant: string; crawlers: string[]; paths: string[] }[]>;
}

/** The feature's parts for one app. */
export interface SiteLogs {
  store: LogsStore;
  /** Reads an upload into the site's aggregates; returns the read's summary. */
  ingest(
    accountId: string,
    domain: string,
    body: ReadableStream<Uint8Array>,
    opts: {
      format?: LogFormatId;
      statedBytes: number;
      onProgress?: (progress: { bytes: number; lines: number }) => void;
    },
  ): Promise<ReadSummary>;
  /** Uploads from the account page in progress, as their pages follow them. */
  uploads: UploadTracker;
  /** The report of the site's stored logs, joined with the account's answer presence. */
  report(accountId: string, domain: string): Promise<LogReport>;
  /** The crawler matrix's observed column of the site (null: no crawler hit stored). */
  observed(accountId: string, domain: string): Promise<ObservedColumn | null>;
  /**
   * Per day and crawler, verified hits and how many were answered 403 or 429 (what a watch's log
   * rules read: lib/features/watch/log_alerts.ts).
   */
  daily(
    accountId: string,
    domain: string,
  ): Promise<Record<string, Record<string, { verified: number; refused: number }>>>;
  close(): Promise<void>;
}

const built = new WeakMap<object, SiteLogs>();

/** The feature of an app (built on first use). */
export function logsOf(deps: LogsAppDeps): SiteLogs {
  const known = built.get(deps);
  if (known) return known;
  const made = createSiteLogs(deps);
  built.set(deps, made);
  return made;
}

function createSiteLogs(deps: LogsAppDeps): SiteLogs {
  const { config } = deps;
  const store = new LogsStore(deps.store.kv, deps.service.name);
  const cache: RangeCache = memoryRangeCache();
  let fetcher: GuardedFetcher | null = null;
  const fetcherOf = () =>
    fetcher ??= createGuardedFetcher({ userAgent: config.userAgent, resolve: config.scanResolve });

  /** The vendors' lists fetched through the guarded fetcher (kept a day), for the worker. */
  async function fetchedLists() {
    if (!config.logs.fetchRanges) return {};
    await loadRanges({
      directory: config.logs.ipRangesDir,
      fetcher: fetcherOf(),
      cache,
      now: deps.now,
      snapshot: false,
    });
    const out: Record<string, { text: string; fetchedAt: number }> = {};
    for (const l of RANGE_LISTS) {
      const c = cache.get(l.url);
      if (c) out[l.url] = c;
    }
    return out;
  }

  async function robotsOf(domain: string): Promise<string | null> {
    try {
      const r = await fetcherOf().fetch(`https://${domain}/robots.txt`, {
        maxBytes: 512 * 1024,
        timeoutMs: 5_000,
        headers: { accept: "text/plain" },
      });
      return r.status === 200 ? r.body : null;
    } catch {
      return null;
    }
  }

  async function sampledPages(domain: string): Promise<string[]> {
    const scan = await deps.store.getScan(domain);
    const result =
      (scan?.record as { result?: { pillars?: { signals?: { pages?: { url: string }[] }[] }[] } })
        ?.result;
    const pages = result?.pillars?.flatMap((p) => p.signals ?? []).flatMap((s) => s.pages ?? []) ??
      [];
    const out: string[] = [];
    for (const p of pages) {
      try {
        out.push(new URL(p.url).pathname);
      } catch { /* not a URL */ }
    }
    return out;
  }

  return {
    store,
    uploads: new UploadTracker(deps.now),
    async ingest(accountId, domain, body, opts) {
      const timeoutMs = 60_000 + Math.ceil(opts.statedBytes / (1024 * 1024)) * 2_000;
      const { aggregates, summary } = await readInWorker(
        body,
        {
          config,
          format: opts.format,
          maxBytes: config.logs.maxReadBytes,
          fetched: await fetchedLists(),
        },
        timeoutMs,
        opts.onProgress,
      );
      const now = deps.now();
      const from = new Date(now - config.logs.retentionDays * 86_400_000).toISOString().slice(
        0,
        10,
      );
      await store.addRead(
        accountId,
        domain,
        keepFrom(aggregates, from),
        summary,
        now,
        config.logs.retentionDays,
      );
      return summary;
    },
    async report(accountId, domain) {
      const [agg, robotsTxt, pages, cited] = await Promise.all([
        store.aggregates(accountId, domain),
        robotsOf(domain),
        sampledPages(domain),
        deps.citedPagesOf?.(accountId, domain).catch(() => []) ?? [],
      ]);
      const context = { robotsTxt, importantPages: pages, cited };
      // The site's robots.txt is a stranger's text: parsed in the worker, never on this thread.
      return robotsTxt
        ? await reportInWorker({ aggregates: agg, context }, 30_000)
        : logReport(agg, context);
    },
    async daily(accountId, domain) {
      const agg = await store.aggregates(accountId, domain);
      const out: Record<string, Record<string, { verified: number; refused: number }>> = {};
      for (const [day, crawlers] of Object.entries(agg.days)) {
        const d: Record<string, { verified: number; refused: number }> = out[day] = {};
        for (const [token, c] of Object.entries(crawlers)) {
          d[token] = {
            verified: c.hits.verified,
            refused: (c.status.verified["403"] ?? 0) + (c.status.verified["429"] ?? 0),
          };
        }
      }
      return out;
    },
    async observed(accountId, domain) {
      // The counts only: no robots.txt fetch, no join (the report page must stay quick).
      const agg = await store.aggregates(accountId, domain);
      return observedColumn(logReport(agg), accountSiteLogsPath(domain));
    },
    async close() {
      await fetcher?.close();
    },
  };
}
