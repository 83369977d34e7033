/**
 * The server-log reader's settings, read from the environment by lib/kit/config.ts (the only reader of
 * the environment) through {@link logsFromEnv}: LOG_IP_RANGES_DIR (a directory of the vendors'
 * address lists under their published names, used before any fetch), LOG_UPLOAD_MAX_MB (the
 * largest upload, compressed as sent), LOG_MAX_READ_MB (the most a log is read to, decompressed)
 * LOG_RETENTION_DAYS (how long daily aggregates are kept), LOG_REVERSE_DNS (off: ask no DNS),
 * LOG_IP_RANGES_FETCH (off: never fetch the lists), LOG_READ_HEAP_MB (the heap of the worker
 * processes that read uploads) and LOG_READ_TIMEOUT_MS (an upload's time to be read, before the
 * 2 s per stated MB added to it).
 */

import { intSetting } from "../../kit/config_values.ts";

/** The feature's settings. */
export interface LogsSettings {
  ipRangesDir: string | undefined;
  maxUploadBytes: number;
  maxReadBytes: number;
  retentionDays: number;
  /** LOG_REVERSE_DNS=off: no DNS query (hits only DNS could decide stay unverifiable). */
  reverseDns: boolean;
  /** LOG_IP_RANGES_FETCH=off: the vendors' lists are never fetched (directory and snapshot only). */
  fetchRanges: boolean;
  /**
   * LOG_READ_HEAP_MB: the V8 old generation of the worker processes that read uploads (never more
   * than the scan workers'). What a read keeps is bounded (the aggregates, one chunk, a line), so
   * a small heap keeps the worker's memory flat however long the log; an upload whose counters
   * need more fails, and is uploaded in parts.
   */
  readHeapMb: number;
  /** LOG_READ_TIMEOUT_MS: the time an upload is given to be read, plus 2 s per stated MB. */
  readTimeoutMs: number;
}

/** The settings from the environment; throws with a message naming the bad variable. */
export function logsFromEnv(env: Record<string, string | undefined>): LogsSettings {
  return {
    ipRangesDir: env.LOG_IP_RANGES_DIR?.trim() || undefined,
    maxUploadBytes: intSetting(env, "LOG_UPLOAD_MAX_MB", 200, 1, 10_240) * 1024 * 1024,
    maxReadBytes: intSetting(env, "LOG_MAX_READ_MB", 4096, 1, 1_048_576) * 1024 * 1024,
    retentionDays: intSetting(env, "LOG_RETENTION_DAYS", 400, 1, 3650),
    reverseDns: !/^(off|0|false)$/i.test(env.LOG_REVERSE_DNS?.trim() ?? ""),
    fetchRanges: !/^(off|0|false)$/i.test(env.LOG_IP_RANGES_FETCH?.trim() ?? ""),
    readHeapMb: intSetting(env, "LOG_READ_HEAP_MB", 48, 16, 4096),
    readTimeoutMs: intSetting(env, "LOG_READ_TIMEOUT_MS", 60_000, 1000, 3_600_000),
  };
}
