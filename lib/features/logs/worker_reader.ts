/**
 * Reads an upload in a worker (log_worker.ts): the request body is streamed into it chunk by
 * chunk, as the worker asks, and the aggregates and summary come back. The server's thread parses
 * nothing of the log. A read has a time budget proportional to its stated size; a worker past it
 * is terminated. Uploads read at once are limited (the rest are refused with a 503 and a retry).
 *
 * The worker is a thread: Deno 2.9.6 cannot stop a thread stuck in code that never returns, so the
 * reader's code is linear (no regex over untrusted text backtracks; lines are capped). Moving it
 * into a killable worker process is issue 39's (docs/logs.md says so).
 */
import type { FromWorker, ReportJob, WorkerInit } from "./worker_protocol.ts";
import type { LogReport } from "./report.ts";
import type { Aggregates } from "./aggregate.ts";
import type { ReadSummary } from "./read_log.ts";

/** Uploads read at once per process. */
export const MAX_READS = 2;
let reading = 0;

/** Thrown when MAX_READS uploads are being read. */
export class ReadersBusyError extends Error {
  override name = "ReadersBusyError";
}

/** Thrown when the read passed its time budget. */
export class ReadTimeoutError extends Error {
  override name = "ReadTimeoutError";
}

/** Reads `body` in a worker within `timeoutMs`; `onProgress` hears how far the read is. */
export async function readInWorker(
  body: ReadableStream<Uint8Array>,
  init: WorkerInit,
  timeoutMs: number,
  onProgress?: (progress: { bytes: number; lines: number }) => void,
): Promise<{ aggregates: Aggregates; summary: ReadSummary }> {
  if (reading >= MAX_READS) throw new ReadersBusyError("the log readers are busy");
  reading++;
  const worker = new Worker(new URL("./log_worker.ts", import.meta.url), { type: "module" });
  const source = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise((resolve, reject) => {
      timer = setTimeout(
        () => reject(new ReadTimeoutError("the log took too long to read")),
        timeoutMs,
      );
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
      worker.onmessage = async (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if ("done" in m) resolve(m.done);
        else if ("error" in m) reject(new Error(m.error));
        else if ("progress" in m) onProgress?.(m.progress);
        else {
          try {
            const r = await source.read();
            if (r.done) worker.postMessage({ end: true });
            else {
              // A chunk that is a whole buffer moves to the worker; a view into a larger one is
              // copied (its buffer may hold other bytes).
              const v = r.value;
              const whole = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
              const chunk = whole ? v : v.slice();
              worker.postMessage({ chunk }, [chunk.buffer as ArrayBuffer]);
            }
          } catch (error) {
            reject(error);
          }
        }
      };
      worker.postMessage({ init });
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
    source.cancel().catch(() => {});
    reading--;
  }
}

/**
 * A site's report built in a worker (its robots.txt, a stranger's text, is parsed there), within
 * `timeoutMs`.
 */
export async function reportInWorker(job: ReportJob, timeoutMs: number): Promise<LogReport> {
  const worker = new Worker(new URL("./log_worker.ts", import.meta.url), { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new ReadTimeoutError("the report took too long")), timeoutMs);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
      worker.onmessage = (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if ("reported" in m) resolve(m.reported);
        else if ("error" in m) reject(new Error(m.error));
      };
      worker.postMessage({ report: job });
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}
