/**
 * A scan asked for and waited for, for callers that answer once with the result (the MCP tools
 * scan_site and generate_schema): a fresh cached record at once, else a new scan through
 * requestScan (cache -> DNS -> limits -> enqueue, the same limits as the public form), then the
 * store polled until its record is there or the wait ends. Polling the store works whichever
 * process runs the scan.
 */
import { normaliseTarget } from "../../kit/net/target.ts";
import type { BaseRecord } from "../../service.ts";
import type { StoredScan } from "../../kit/storage/store.ts";
import { requestScan, type ScanServiceDeps } from "./scan_service.ts";

/** Who waits, and for how long (an MCP request's context fits). */
export interface ScanWaitContext {
  deps: ScanServiceDeps;
  /** The caller's address: new scans count in its per-IP pool. */
  ip: string;
  /** How long to wait for a new scan before answering that it is still running. */
  scanWaitMs: number;
  /** How often the store is read while waiting. */
  pollIntervalMs: number;
}

/** What {@link scanAndWait} found: the record (cached or new), or null while still running. */
export interface ScanWait {
  domain: string;
  record: BaseRecord | null;
  fromCache: boolean;
  /** False when the request joined a scan that was already in flight. */
  started: boolean;
}

/**
 * The shared scan flow for tools: a fresh cached record at once, else a new scan (limits and
 * all, through requestScan) waited for up to the configured time.
 */
export async function scanAndWait(
  ctx: ScanWaitContext,
  url: string,
  forceRescan: boolean,
  signal?: AbortSignal,
  /** Absent: the service's default (the schema service renders where it can); false opts out. */
  render?: boolean,
): Promise<ScanWait> {
  const target = { ...normaliseTarget(url), ...(render !== undefined ? { render } : {}) };
  const requestedAt = ctx.deps.now();
  const outcome = await requestScan(target, { kind: "mcp", ip: ctx.ip }, { forceRescan }, ctx.deps);
  const domain = target.domain;
  if (outcome.status === 200) {
    return { domain, record: outcome.record, fromCache: true, started: false };
  }
  const done = await waitForRecord(
    ctx,
    domain,
    requestedAt,
    signal ?? new AbortController().signal,
  );
  return { domain, record: done?.record ?? null, fromCache: false, started: outcome.started };
}

/**
 * Waits for the scan the request admitted (or joined) to finish: the domain is no longer in flight
 * and its stored record is at least as new as the request. Null when the wait ends first (or the
 * client goes away).
 */
async function waitForRecord(
  ctx: ScanWaitContext,
  domain: string,
  requestedAt: number,
  signal: AbortSignal,
): Promise<StoredScan | null> {
  const deadline = performance.now() + ctx.scanWaitMs;
  for (;;) {
    // The record is only read once the domain is no longer in flight.
    const stored = (await ctx.deps.store.getInflight(domain))
      ? null
      : await ctx.deps.store.getScan(domain);
    if (stored && isNewEnough(stored.record, requestedAt)) return stored;
    const left = deadline - performance.now();
    if (left <= 0 || signal.aborted) return null;
    await sleep(Math.min(ctx.pollIntervalMs, left), signal);
  }
}

function isNewEnough(record: BaseRecord, requestedAt: number): boolean {
  return Date.parse(record.scannedAt) >= requestedAt;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
