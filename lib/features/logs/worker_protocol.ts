/**
 * The messages between the server's thread and a log-reading worker (log_worker.ts,
 * worker_reader.ts). The server's thread only moves the upload's bytes, as they arrive, into the
 * worker; every byte is decoded, split and parsed there.
 */
import type { Config } from "../../kit/config.ts";
import type { Aggregates } from "./aggregate.ts";
import type { LogFormatId } from "./formats.ts";
import type { ReadSummary } from "./read_log.ts";
import type { LogReport, ReportContext } from "./report.ts";

/** The first message: how to read. */
export interface WorkerInit {
  config: Config;
  format?: LogFormatId;
  maxBytes: number;
  /** Lists the server fetched (and keeps), by URL. */
  fetched: Record<string, { text: string; fetchedAt: number }>;
}

/**
 * A site's report joined with its robots.txt (text fetched by the server, parsed only here), its
 * important pages and the pages assistants cited.
 */
export interface ReportJob {
  aggregates: Aggregates;
  context: ReportContext;
}

/** Server -> worker. */
export type ToWorker =
  | { init: WorkerInit }
  | { chunk: Uint8Array }
  | { end: true }
  | { report: ReportJob };

/** Worker -> server. */
export type FromWorker =
  /** Ready for the next chunk. */
  | { more: true }
  /** How far the read is (after each chunk). */
  | { progress: { bytes: number; lines: number } }
  | { done: { aggregates: Aggregates; summary: ReadSummary } }
  | { reported: LogReport }
  | { error: string };
