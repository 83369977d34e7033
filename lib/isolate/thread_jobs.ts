/**
 * The jobs besides scans a scan thread runs (lib/isolate/protocol.ts ThreadJob), by kind: the
 * same function runs in a thread (lib/isolate/scan_thread.ts) and, where no thread can be started,
 * in this isolate (lib/isolate/scan_threads.ts inlineRunner).
 */
import { runValidateJob } from "../schema/validate_job.ts";
import { boundStoredJson } from "../limits/record_budget.ts";
import type { ThreadJob, ThreadJobAnswer } from "./protocol.ts";

/** Runs one job; throws only for a bug (a client's bad input is an answer with a 4xx). */
export function runThreadJob(job: ThreadJob): ThreadJobAnswer {
  switch (job.kind) {
    case "validate-code":
      return runValidateJob(job);
    case "bound-record":
      return { json: boundStoredJson(job.json) };
  }
}
