/** The messages between the server and a scan thread (lib/isolate/scan_threads.ts, scan_thread.ts). */
import type { Config } from "../config.ts";
import type { Target } from "../net/target.ts";
import type { RunOutcome, ScanStep } from "../service.ts";

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
  | { id: number; progress: ScanStep }
  | { id: number; ok: false; error: string };
