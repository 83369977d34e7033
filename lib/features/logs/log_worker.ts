/**
 * A worker that reads one uploaded log (worker_reader.ts starts it): the bytes arrive chunk by
 * chunk, and the worker asks for the next one only when the reader wants more, so a large upload
 * never piles up in memory. It loads the address lists from the directory, the lists the server
 * handed over, or the snapshot; asks DNS and key directories itself when the settings allow. It
 * also builds a site's report when a robots.txt joins it: the site's text is parsed here, never on
 * the server's thread.
 */
/// <reference lib="deno.worker" />
import { createCrawlerDns } from "../../kit/net/crawler_dns.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import { loadRanges } from "./ip_ranges.ts";
import { keyDirectory } from "./key_directory.ts";
import { readAccessLog } from "./read_log.ts";
import { logReport } from "./report.ts";
import type { FromWorker, ToWorker, WorkerInit } from "./worker_protocol.ts";

const post = (m: FromWorker) => self.postMessage(m);
let controller: ReadableStreamDefaultController<Uint8Array> | null = null;

const input = new ReadableStream<Uint8Array>({
  start(c) {
    controller = c;
  },
  pull() {
    post({ more: true });
  },
}, { highWaterMark: 1 });

async function run(init: WorkerInit) {
  const { config } = init;
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
  });
  try {
    const ranges = await loadRanges({ directory: config.logs.ipRangesDir, fetched: init.fetched });
    const result = await readAccessLog(input, {
      ranges,
      format: init.format,
      maxBytes: init.maxBytes,
      dns: config.logs.reverseDns ? createCrawlerDns() : null,
      keys: keyDirectory(fetcher),
      onProgress: (progress) => post({ progress }),
    });
    post({ done: result });
  } catch (e) {
    post({ error: e instanceof Error ? e.message : String(e) });
  } finally {
    await fetcher.close();
  }
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  try {
    if ("init" in m) run(m.init);
    else if ("report" in m) {
      try {
        post({ reported: logReport(m.report.aggregates, m.report.context) });
      } catch (e) {
        post({ error: e instanceof Error ? e.message : String(e) });
      }
    } else if ("chunk" in m) controller?.enqueue(m.chunk);
    else controller?.close();
  } catch {
    // The reader stopped early (the size cap, a truncated gzip stream): later bytes are dropped.
  }
};
