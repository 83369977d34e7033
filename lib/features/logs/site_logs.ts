/**
 * The feature for the server: reading an account's upload into its site's stored aggregates, and
 * the report of a site's logs joined with what the service knows of the site: its robots.txt as
 * fetched now (through the guarded fetcher), its sampled pages from the latest scan (the home page
 * and the sitemap's pages), and the pages assistants cited in the account's answer presence runs.
 * Built once per app (`logsOf`).
 *
 * Nothing a stranger wrote is parsed here: an upload's bytes are moved into a worker process as
 * it asks for them (the "log-read" stream job, read_job.ts), the vendors' address lists are
 * fetched as text and parsed there too, and a site's robots.txt is joined with its crawlers'
 * fetches in the "log-report" job (report_job.ts). A read stopped at its limit stores nothing.
 */
import type { Config } from "../../kit/config.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import type { Store } from "../../kit/storage/store.ts";
import { ScanIsolationError, type ScanRunner } from "../../kit/isolate/runner.ts";
import type { LogFormatId } from "./formats.ts";
import { directoryLists, fetchLists, memoryRangeCache, type RangeCache } from "./range_fetch.ts";
import { LogsStore } from "./store.ts";
import type { ReadSummary } from "./read_log.ts";
import { logFigures, type LogReport, observedColumn } from "./figures.ts";
import type { ObservedColumn } from "../../service.ts";
import { accountSiteLogsPath } from "../../kit/report_urls.ts";
import { UploadTracker } from "./upload_tracker.ts";
import type { LogReadAnswer, LogReadJob, LogReadProgress } from "./read_job.ts";
import { LOG_REPORT_TIMEOUT_MS, type LogReportJob } from "./report_job.ts";
import {
  LogCountersTooManyError,
  LogReadersBusyError,
  LogReadStoppedError,
  type ReadSoFar,
} from "./read_errors.ts";

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
  /**
   * Where reads and robots.txt joins run (lib/app/server.ts sets it: worker processes, threads or
   * this isolate, as SCAN_ISOLATION says), and how many workers it has.
   */
  threads?:
    | (Pick<ScanRunner, "runJob"> & Partial<Pick<ScanRunner, "runStream" | "stats">>)
    | null;
  log?: (entry: Record<string, unknown>) => void;
}

/** How an upload is read. */
export interface IngestOptions {
  format?: LogFormatId;
  /** The body's stated size (its Content-Length): the read's time budget grows with it. */
  statedBytes: number;
  /** Decompressed bytes read at most (default LOG_MAX_READ_MB). */
  maxBytes?: number;
  /** Told how far the read is (bytes after decompression, lines). */
  onProgress?: (progress: LogReadProgress) => void;
  /** Bytes of the body received so far (what a stopped read's error says had come). */
  received?: () => number;
}

/** The feature's parts for one app. */
export interface SiteLogs {
  store: LogsStore;
  /**
   * Reads an upload into the site's aggregates; returns the read's summary. Throws
   * LogReadersBusyError, LogReadStoppedError or LogCountersTooManyError (read_errors.ts).
   */
  ingest(
    accountId: string,
    domain: string,
    body: ReadableStream<Uint8Array>,
    opts: IngestOptions,
  ): Promise<ReadSummary>;
  /**
   * Reads a log without storing it (the MCP tool without a key): its aggregates and summary.
   * Throws as {@link ingest}.
   */
  read(
    body: ReadableStream<Uint8Array>,
    opts: IngestOptions,
  ): Promise<Extract<LogReadAnswer, { aggregates: object }>>;
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

/** Uploads read at once when the runner has no pool to size them by. */
const DEFAULT_READS = 2;
const MB = 1024 * 1024;
/** An upload's time to be read grows by this much per stated MB. */
const MS_PER_MB = 2_000;

function createSiteLogs(deps: LogsAppDeps): SiteLogs {
  const { config } = deps;
  const store = new LogsStore(deps.store.kv, deps.service.name);
  const cache: RangeCache = memoryRangeCache();
  let fetcher: GuardedFetcher | null = null;
  const fetcherOf = () =>
    fetcher ??= createGuardedFetcher({ userAgent: config.userAgent, resolve: config.scanResolve });
  let reading = 0;

  /** The runner (createServer sets it before any request). */
  const runner = () => {
    const threads = deps.threads;
    if (!threads?.runStream) throw new Error("no runner for log reads (lib/app/server.ts sets it)");
    return threads as Pick<ScanRunner, "runJob" | "runStream">;
  };

  /**
   * Uploads read at once: half the pool's workers (at least one), so that scans keep the rest; a
   * pool of one worker lends it to one read at a time, and scans wait for it meanwhile.
   */
  const maxReads = () => {
    const workers = deps.threads?.stats?.().maxWorkers;
    return workers ? Math.max(1, Math.floor(workers / 2)) : DEFAULT_READS;
  };

  /**
   * The vendors' lists as text, for the worker: the operator's directory, then copies fetched
   * through the guarded fetcher (kept a day). Parsed only in the worker.
   */
  async function lists(): Promise<Pick<LogReadJob, "files" | "fetched">> {
    const files = config.logs.ipRangesDir ? await directoryLists(config.logs.ipRangesDir) : {};
    const fetched = config.logs.fetchRanges
      ? await fetchLists(fetcherOf(), cache, deps.now, files)
      : {};
    return { files, fetched };
  }

  /** Reads `body` in a worker: the job's answer, or the error a stopped read is. */
  async function readBody(
    body: ReadableStream<Uint8Array>,
    opts: IngestOptions,
    fromDay: string,
  ): Promise<Extract<LogReadAnswer, { aggregates: object }>> {
    if (reading >= maxReads()) throw new LogReadersBusyError();
    reading++;
    const started = performance.now();
    const seen: LogReadProgress = { bytes: 0, lines: 0 };
    // Whether the read was waiting on the body's next bytes when it was stopped: the sender was
    // too slow (408), not the log (422).
    let awaitingBody = false;
    const source = body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(c) {
        awaitingBody = true;
        try {
          const r = await source.read();
          if (r.done) c.close();
          else c.enqueue(r.value);
        } finally {
          awaitingBody = false;
        }
      },
      cancel: (why) => source.cancel(why),
    }, { highWaterMark: 0 });
    const timeoutMs = config.logs.readTimeoutMs + Math.ceil(opts.statedBytes / MB) * MS_PER_MB;
    const soFar = (): ReadSoFar => ({
      received: opts.received?.() ?? 0,
      ...seen,
      seconds: Math.round((performance.now() - started) / 1000),
    });
    try {
      const job: LogReadJob = {
        kind: "log-read",
        format: opts.format,
        maxBytes: opts.maxBytes ?? config.logs.maxReadBytes,
        fromDay,
        reverseDns: config.logs.reverseDns,
        fetch: {
          userAgent: config.userAgent,
          scanResolve: config.scanResolve,
          requestTimeoutMs: config.requestTimeoutMs,
        },
        ...await lists(),
      };
      let answer: LogReadAnswer;
      try {
        answer = await runner().runStream(job, watched, timeoutMs, (p) => {
          const progress = p as LogReadProgress;
          seen.bytes = progress.bytes;
          seen.lines = progress.lines;
          opts.onProgress?.(progress);
        }) as LogReadAnswer;
      } catch (error) {
        if (!(error instanceof ScanIsolationError)) throw error;
        const stopped = error.kind === "time"
          ? new LogReadStoppedError(
            awaitingBody ? "late" : "slow",
            soFar(),
            `after ${Math.round(timeoutMs / 1000)} s`,
          )
          : error.kind === "memory"
          ? new LogReadStoppedError(
            "memory",
            soFar(),
            `${Math.min(config.logs.readHeapMb, config.isolation.heapMb)} MB`,
          )
          : new LogReadStoppedError("crash", soFar(), error.message);
        deps.log?.({
          event: "logs.read_stopped",
          reason: stopped.reason,
          ...stopped.soFar,
        });
        throw stopped;
      }
      if (answer.tooMany) {
        throw new LogCountersTooManyError(answer.tooMany.days, {
          ...soFar(),
          bytes: answer.summary.bytes,
          lines: answer.summary.lines,
        });
      }
      return answer;
    } finally {
      reading--;
      source.cancel().catch(() => {});
    }
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
      const now = deps.now();
      // Days past the retention are dropped in the worker, before they come back.
      const from = new Date(now - config.logs.retentionDays * 86_400_000).toISOString().slice(
        0,
        10,
      );
      const { aggregates, summary } = await readBody(body, opts, from);
      await store.addRead(
        accountId,
        domain,
        aggregates,
        summary,
        now,
        config.logs.retentionDays,
      );
      return summary;
    },
    read(body, opts) {
      return readBody(body, opts, "0000-00-00");
    },
    async report(accountId, domain) {
      const [agg, robotsTxt, pages, cited] = await Promise.all([
        store.aggregates(accountId, domain),
        robotsOf(domain),
        sampledPages(domain),
        deps.citedPagesOf?.(accountId, domain).catch(() => []) ?? [],
      ]);
      const context = { importantPages: pages, cited };
      if (!robotsTxt) return logFigures(agg, context).report;
      // The site's robots.txt is a stranger's text: parsed in a worker, never on this thread.
      const job: LogReportJob = {
        kind: "log-report",
        aggregates: agg,
        context: { ...context, robotsTxt },
      };
      try {
        return await runner().runJob(job, LOG_REPORT_TIMEOUT_MS) as LogReport;
      } catch (error) {
        if (!(error instanceof ScanIsolationError)) throw error;
        // Stopped at its limit: the report without the robots.txt join, as when it cannot be
        // fetched.
        deps.log?.({ event: "logs.report_stopped", domain, error: error.message });
        return logFigures(agg, context).report;
      }
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
      return observedColumn(logFigures(agg).report, accountSiteLogsPath(domain));
    },
    async close() {
      await fetcher?.close();
    },
  };
}
