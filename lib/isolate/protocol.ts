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
 * a stranger sends. One kind so far: code validation (lib/schema/validate_job.ts).
 */
export type ThreadJob = ValidateJob;

/** What a job gives back (by the job's kind). */
export type ThreadJobAnswer = ValidateAnswer;

/** A job for a thread (sent like a scan; told apart by `job`). */
export interface JobRequestMessage {
  id: number;
  job: ThreadJob;
}

/** What a thread answers to a job. */
export type JobReplyMessage =
  | { id: number; ok: true; answer: ThreadJobAnswer }
  | { id: number; ok: false; error: string };
