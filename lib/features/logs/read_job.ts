/**
 * The "log-read" job: an uploaded log read in a worker process (lib/kit/isolate/protocol.ts
 * StreamJobModule; registered in jobs.ts). The server's thread moves the upload's bytes into the
 * worker as it asks for them and parses none of them; here they are decompressed, split, checked
 * and judged (read_log.ts), the vendors' address lists the server handed over are parsed
 * (ip_ranges.ts), DNS and Web Bot Auth key directories are asked when the settings allow, and
 * only the aggregates and the read's summary go back. The worker has a heap of its own
 * (LOG_READ_HEAP_MB), so a log of any length leaves its memory flat; at its time limit the pool
 * kills it (lib/kit/isolate/process_pool.ts), and nothing of that read is stored.
 */
import { serialize } from "node:v8";
import type { Config } from "../../kit/config.ts";
import { createCrawlerDns } from "../../kit/net/crawler_dns.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { type Aggregates, keepFrom } from "./aggregate.ts";
import type { LogFormatId } from "./formats.ts";
import { loadRanges } from "./ip_ranges.ts";
import { keyDirectory } from "./key_directory.ts";
import { readAccessLog, type ReadSummary } from "./read_log.ts";

/** A log to read (its bytes are the stream job's input). */
export interface LogReadJob {
  kind: "log-read";
  format?: LogFormatId;
  /** Decompressed bytes read at most (LOG_MAX_READ_MB; the MCP tool's 48 KiB). */
  maxBytes: number;
  /** Days before this one (YYYY-MM-DD) are dropped from the answer: past the retention. */
  fromDay: string;
  /** The operator's directory of lists (LOG_IP_RANGES_DIR), read by the server, by file name. */
  files: Record<string, string>;
  /** Lists the server fetched (and keeps), by URL. */
  fetched: Record<string, { text: string; fetchedAt: number }>;
  /** LOG_REVERSE_DNS: ask DNS where the vendor documents it. */
  reverseDns: boolean;
  /** How Web Bot Auth key directories are fetched (SCAN_RESOLVE applies, as for a scan). */
  fetch: Pick<Config, "userAgent" | "scanResolve" | "requestTimeoutMs">;
}

/** How far a read is, as the upload form shows it. */
export interface LogReadProgress {
  bytes: number;
  lines: number;
}

/**
 * What the job answers: the aggregates and the summary, or, when the aggregates are too many to
 * send back ({@link MAX_ANSWER_BYTES}), the summary alone and `tooMany`.
 */
export type LogReadAnswer =
  | { aggregates: Aggregates; summary: ReadSummary; tooMany?: undefined }
  | { aggregates: null; summary: ReadSummary; tooMany: { bytes: number; days: number } };

/**
 * The largest answer sent back, serialised: under the worker pool's 16 MiB reply cap
 * (lib/kit/isolate/process_pool.ts), with room for the summary. A year of several crawlers each
 * fetching hundreds of distinct pages a day can pass it: such a log is uploaded in parts.
 */
export const MAX_ANSWER_BYTES = 12 * 1024 * 1024;

/** Progress is told at most this often (each report is a message to the server). */
const PROGRESS_MS = 200;

/**
 * The read collects its garbage after each this many bytes, where the worker allows it
 * (`--expose-gc`: the log-read workers, lib/kit/isolate/process_pool.ts ownHeap). The pieces read
 * are buffers outside V8's heap; those that lived through a young collection (waiting in the
 * input's queue while the reader worked) are freed only by a full collection, which V8 starts
 * only once tens of MB of them have piled up: without this, a worker's peak kept rising (112-113 MB
 * after 200 MB, 199 MB after 800 MB), and with it stayed at 90-93 MB after 200 MB, 800 MB and 2 GB
 * (tests/bench/logs_bench.ts --child=FILE --via=worker, docs/logs.md "Benchmarks").
 */
const COLLECT_EVERY = 32 * 1024 * 1024;

/** V8's collector, when the worker was started with `--expose-gc` (else undefined). */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * The guarded fetcher (lib/kit/net/guarded_fetch.ts), loaded on its first use: only a log whose
 * lines carry Web Bot Auth signatures asks for a key directory, and the fetcher's HTTP client is
 * more than the reader itself takes to load (a bare Deno holds 58-59 MB once it has imported
 * guarded_fetch.ts, 48-49 MB once it has imported read_log.ts:
 * `deno eval --config=deno.json "await import('./lib/kit/net/guarded_fetch.ts'); console.log(Deno.memoryUsage().rss >> 20)"`,
 * and the same with `./lib/features/logs/read_log.ts`).
 */
export function fetcherOnUse(fetch: LogReadJob["fetch"]): GuardedFetcher {
  let made: Promise<GuardedFetcher> | null = null;
  const fetcher = () =>
    made ??= import("../../kit/net/guarded_fetch.ts").then((m) =>
      m.createGuardedFetcher({
        userAgent: fetch.userAgent,
        resolve: fetch.scanResolve,
        requestTimeoutMs: fetch.requestTimeoutMs,
      })
    );
  return {
    fetch: async (url, options) => await (await fetcher()).fetch(url, options),
    close: async () => {
      if (made) await (await made).close();
    },
  };
}

/** The worker's entry point (lib/kit/isolate/protocol.ts StreamJobModule). */
export async function runStream(
  job: LogReadJob,
  input: ReadableStream<Uint8Array>,
  progress: (p: LogReadProgress) => void,
): Promise<LogReadAnswer> {
  const fetcher = fetcherOnUse(job.fetch);
  try {
    const ranges = await loadRanges({ files: job.files, fetched: job.fetched });
    let told = 0;
    let collectAt = COLLECT_EVERY;
    const { aggregates, summary } = await readAccessLog(input, {
      ranges,
      format: job.format,
      maxBytes: job.maxBytes,
      dns: job.reverseDns ? createCrawlerDns() : null,
      keys: keyDirectory(fetcher),
      onProgress: (p) => {
        if (collect && p.bytes >= collectAt) {
          collectAt = p.bytes + COLLECT_EVERY;
          collect();
        }
        const now = performance.now();
        if (now - told < PROGRESS_MS) return;
        told = now;
        progress(p);
      },
    });
    progress({ bytes: summary.bytes, lines: summary.lines });
    const kept = keepFrom(aggregates, job.fromDay);
    const bytes = serialize(kept).byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      return { aggregates: null, summary, tooMany: { bytes, days: Object.keys(kept.days).length } };
    }
    return { aggregates: kept, summary };
  } finally {
    await fetcher.close();
  }
}
