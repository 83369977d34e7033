/**
 * One call for the library and the CLI: read a log, judge its crawler hits and build the owner's
 * report, with the address lists' state (where each came from, as of when).
 *
 * @example
 * ```ts
 * import { analyseLog } from "./mod.ts";
 * const file = await Deno.open("access.log.gz");
 * const { summary, report } = await analyseLog(file.readable, { robotsTxt: "User-agent: *\nAllow: /" });
 * console.log(summary.format, report.totals);
 * ```
 */
import type { CrawlerDns } from "../../kit/net/crawler_dns.ts";
import type { Aggregates } from "./aggregate.ts";
import type { LogFormatId } from "./formats.ts";
import { type LoadedRanges, loadRanges, type RangeListState } from "./ip_ranges.ts";
import { readAccessLog, type ReadSummary } from "./read_log.ts";
import { type LogReport, logReport, type ReportContext } from "./report.ts";
import type { KeyDirectory } from "./web_bot_auth.ts";

/** Options of {@link analyseLog}. */
export interface AnalyseOptions extends ReportContext {
  format?: LogFormatId;
  /** Loaded address lists (default: the shipped snapshot only, no network). */
  ranges?: LoadedRanges;
  /** Reverse DNS checks (default none: hits only DNS could decide stay unverifiable). */
  dns?: CrawlerDns | null;
  /** Web Bot Auth key directories (default none: signatures stay unchecked). */
  keys?: KeyDirectory | null;
  maxBytes?: number;
  signal?: AbortSignal;
}

/** What {@link analyseLog} returns. */
export interface LogAnalysis {
  summary: ReadSummary;
  aggregates: Aggregates;
  report: LogReport;
  ranges: RangeListState[];
}

/** Reads a log (plain or gzip bytes) and reports on its crawlers. */
export async function analyseLog(
  input: ReadableStream<Uint8Array>,
  options: AnalyseOptions = {},
): Promise<LogAnalysis> {
  const ranges = options.ranges ?? await loadRanges();
  const { aggregates, summary } = await readAccessLog(input, {
    ranges,
    dns: options.dns ?? null,
    keys: options.keys ?? null,
    format: options.format,
    maxBytes: options.maxBytes,
    signal: options.signal,
  });
  return { summary, aggregates, report: logReport(aggregates, options), ranges: ranges.lists };
}
