/**
 * The shapes lib/kit/storage/store.ts keeps in KV: a stored scan and its parts, the in-flight mark, a
 * queued job, a line of the recent-scans log, a client API key. Types only; the key layout is at
 * the top of the store modules that write them.
 */
import type { Target } from "../net/target.ts";

/** The fields every service's record has (each service's record schema has more). */
export interface BaseRecord {
  domain: string;
  status: "ok" | "failed";
  scannedAt: string;
  result: unknown;
}

/** How the caller that started a scan authenticated ("watch": a scheduled rescan, lib/features/watch/). */
export type CredentialKind = "challenge" | "pipeline" | "key" | "mcp" | "watch";

/** A stored scan: the public record and what only operators see. */
export interface StoredScan {
  record: BaseRecord;
  failure: string | null;
  credential: CredentialKind;
  durationMs: number;
  jobId: string;
  /**
   * Set on the head of a record stored in parts (see {@link Store.finishScan}); getScan returns
   * the whole record, never a head.
   */
  parts?: RecordParts;
}

/** Where a large record's gzip-compressed JSON is: `count` parts under one id. */
export interface RecordParts {
  id: string;
  count: number;
  /** Compressed bytes in all. */
  bytes: number;
  /** The JSON's length in UTF-8 bytes. */
  jsonBytes: number;
}

/** Marks a domain whose scan is queued or running. */
export interface InflightMark {
  jobId: string;
  since: number;
  credential: CredentialKind;
  /** When the worker holding the job last renewed the mark (absent: never). */
  renewedAt?: number;
  /** The scan renders its pages in a browser too (its progress card shows that row). */
  render?: boolean;
  /** The page scanned, when the scan names one (the schema service's per-page reports). */
  url?: string;
}

/** A client API key (the key itself is never stored). */
export interface ApiKeyEntry {
  id: string;
  hash: string;
  /** The first characters of the key, to recognise it in a list (e.g. "uvk_3f9a2c"). */
  prefix: string;
  name: string;
  accountId: string | null;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** A queued scan. `service` lets any process of a shared store run it. */
export interface ScanJob {
  kind: "scan";
  service: string;
  jobId: string;
  /**
   * What to scan, whole, as normaliseTarget made it from what the caller typed (lib/kit/net/
   * target.ts): the record key (`domain`), the host, where the scan starts, the page, whether it
   * renders. The worker hands it to the scanner as it is.
   */
  target: Target;
  credential: CredentialKind;
  enqueuedAt: number;
  /**
   * Whom the scan is for, for fair scheduling (lib/engines/scan/worker.ts): "key:<key id>", else the
   * credential kind and the caller's address. Absent in older jobs (the credential kind then).
   */
  caller?: string;
}

/** A line of the recent-scans log. */
export interface ScanLogEntry {
  domain: string;
  status: "ok" | "failed";
  score: number | null;
  credential: CredentialKind;
  finishedAt: number;
}
