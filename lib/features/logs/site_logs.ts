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
import { type LogReport, logReport } from "./report.ts";
import { readInWorker } from "./worker_reader.ts";
import { RANGE_LISTS } from "./verify_sources.ts";

/** What the feature needs of the app. */
export interface LogsAppDeps {
  config: Config;
  store: Store;
  service: { name: string };
  now: () => number;
}

/** The feature's parts for one app. */
export interface SiteLogs {
  store: LogsStore;
  /** Reads an upload into the site's aggregates; returns the read's summary. */
  ingest(
    accountId: string,
    domain: string,
    body: ReadableStream<Uint8Array>,
    opts: { format?: LogFormatId; statedBytes: number },
  ): Promise<ReadSummary>;
  /** The report of the site's stored logs. */
  report(accountId: string, domain: string, cited?: Record<string, string[]>): Promise<LogReport>;
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
    async ingest(accountId, domain, body, opts) {
      const timeoutMs = 60_000 + Math.ceil(opts.statedBytes / (1024 * 1024)) * 2_000;
      const { aggregates, summary } = await readInWorker(body, {
        config,
        format: opts.format,
        maxBytes: config.logs.maxReadBytes,
        fetched: await fetchedLists(),
      }, timeoutMs);
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
    async report(accountId, domain, cited) {
      const [agg, robotsTxt, pages] = await Promise.all([
        store.aggregates(accountId, domain),
        robotsOf(domain),
        sampledPages(domain),
      ]);
      return logReport(agg, { robotsTxt, importantPages: pages, cited });
    },
    async close() {
      await fetcher?.close();
    },
  };
}
