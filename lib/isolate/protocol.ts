/** The messages between the server and a scan thread (lib/isolate/scan_threads.ts, scan_thread.ts). */
import type { Config } from "../config.ts";
import type { Target } from "../scan/domain.ts";
import type { RunOutcome } from "../service.ts";
import type { ValidateAnswer, ValidateJob } from "../schema/validate_job.ts";

/** The nice value of scan threads (Linux: per thread); the server's own thread keeps 0. */
export const SCAN_THREAD_NICE = 15;

/** What a thread is sent. */
export interface ScanRequestMessage {
  id: number;
  service: string;
  target: Target;
  config: Config;
  /** The caller's clock at the request (the thread's clock runs from it). */
  nowMs: number;
}

/** What a thread says once it has loaded, before any scan. */
export const THREAD_READY = "scan-thread-ready";

/** What a thread answers. */
export type ScanReplyMessage =
  | { id: number; ok: true; outcome: RunOutcome }
  /** A step the scan started (not the end: a reply with `ok` follows). */
  | { id: number; progress: string }
  | { id: number; ok: false; error: string };

/**
 * Work other than a scan that a thread runs (lib/isolate/thread_jobs.ts): whatever touches bytes
 * a stranger sends or a large stored record: code validation (lib/schema/validate_job.ts), and the
 * summary of a stored record over its budget (lib/limits/record_budget.ts).
 */
export type ThreadJob = ValidateJob | BoundRecordJob;

/** What a job gives back (by the job's kind). */
export type ThreadJobAnswer = ValidateAnswer | BoundRecordAnswer;

/** A stored record over its budget, to summarise (lib/limits/record_budget.ts). */
export interface BoundRecordJob {
  kind: "bound-record";
  /**
   * The record's JSON. Jobs carry text, never bytes: Deno 2.9.6's worker_threads take about a
   * second to pass 1 MB as a Uint8Array, and 40 ms as a string.
   */
  json: string;
}

/** The summary's JSON. */
export interface BoundRecordAnswer {
  json: string;
}

/** A job for a thread (sent like a scan; told apart by `job`). */
export interface JobRequestMessage {
  id: number;
  job: ThreadJob;
}

/** What a thread answers to a job. */
export type JobReplyMessage =
  | { id: number; ok: true; answer: ThreadJobAnswer }
  | { id: number; ok: false; error: string };
