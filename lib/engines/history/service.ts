/**
 * The history as the API, the pages, MCP and the CLI see it: a domain's kept scans, one scan by
 * id, what changed between two scans, and where a scan is (queued, running, done, failed). Reads
 * lib/kit/storage/history.ts; unknown ids are {@link NotFoundError}s (404 JSON errors).
 */
import { NotFoundError } from "../../kit/errors.ts";
import { scanJsonPath, scanPagePath, scanStatusPath } from "../../kit/report_urls.ts";
import type { BaseRecord } from "../../kit/storage/store_types.ts";
import type { HistoryEntry } from "../../kit/storage/history.ts";
import type { Store } from "../../kit/storage/store.ts";
import { diffRecords, type ScanDiff } from "./diff.ts";

/** A kept scan as listed by the API: its line and its permanent links. */
export interface HistoryItem extends Omit<HistoryEntry, "partsId"> {
  page: string;
  json: string;
}

/** A kept scan's links. */
export function linksOf(domain: string, id: string): { page: string; json: string } {
  return { page: scanPagePath(domain, id), json: scanJsonPath(domain, id) };
}

/** A domain's kept scans, newest first, with their links (at most `limit`). */
export async function historyOf(
  store: Store,
  domain: string,
  limit?: number,
): Promise<HistoryItem[]> {
  return (await store.history.list(domain, limit)).map(({ partsId: _p, ...e }) => ({
    ...e,
    ...linksOf(domain, e.id),
  }));
}

/**
 * The latest kept scan of one page of `domain` (the schema service keeps a history per page):
 * its line and record, or null when that page was never scanned (or its scans are no longer
 * kept). Reads the domain's lines newest first, at most `limit` of them.
 */
export async function latestOfPage(
  store: Store,
  domain: string,
  url: string,
  limit = 1000,
): Promise<{ entry: HistoryEntry; record: BaseRecord } | null> {
  const entry = (await store.history.list(domain, limit)).find((e) => e.url === url);
  if (!entry) return null;
  const kept = await store.history.get(entry.id);
  return kept && kept.domain === domain ? { entry, record: kept.record } : null;
}

/** The pages of `domain` its kept scans name, each with its latest scan (newest first). */
export async function pagesOf(
  store: Store,
  domain: string,
  limit = 1000,
): Promise<{ url: string; latest: HistoryItem }[]> {
  const out = new Map<string, HistoryItem>();
  for (const e of await historyOf(store, domain, limit)) {
    if (e.url && !out.has(e.url)) out.set(e.url, e);
  }
  return [...out].map(([url, latest]) => ({ url, latest }));
}

/** One kept scan of `domain` by id. @throws NotFoundError for an unknown id or another domain's. */
export async function scanOf(
  store: Store,
  domain: string,
  id: string,
): Promise<{ entry: HistoryEntry; record: BaseRecord; json: Uint8Array }> {
  const kept = isScanId(id) ? await store.history.get(id) : null;
  if (!kept || kept.domain !== domain) throw new NotFoundError(`No scan ${id} of ${domain}`);
  return kept;
}

/** A scan id is a UUID (its job id); anything else is unknown without a read. */
export function isScanId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}

/**
 * What changed: `to` (default: the latest kept scan) against `from` (default: the scan before
 * `to` of the same target). Null when there is no earlier scan to compare with.
 * @throws NotFoundError when the domain has no kept scan, or an id is unknown.
 */
export async function changesOf(
  store: Store,
  domain: string,
  ids: { from?: string; to?: string } = {},
): Promise<ScanDiff | null> {
  let to;
  if (ids.to) to = await scanOf(store, domain, ids.to);
  else {
    const [latest] = await store.history.list(domain, 1);
    if (!latest) throw new NotFoundError(`No kept scan of ${domain}`);
    to = await scanOf(store, domain, latest.id);
  }
  let from;
  if (ids.from) from = await scanOf(store, domain, ids.from);
  else {
    const previous = await store.history.previous(domain, to.entry);
    if (!previous) return null;
    from = await scanOf(store, domain, previous.id);
  }
  return diffRecords(from.record, to.record, { from: from.entry.id, to: to.entry.id });
}

/** Where a scan is, as GET /api/scans/:id answers. */
export interface ScanStatusView {
  id: string;
  domain: string;
  status: "queued" | "running" | "done" | "failed";
  /** What the worker is doing (running), else null. */
  step: string | null;
  /** The same step's typed id, which the progress card places the scan by (running), else null. */
  stepId: string | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** The scan's own record (done or failed): its permanent page and JSON. */
  report: { page: string; json: string } | null;
  /** Score and grade of a finished scan (visibility). */
  score: number | null;
  grade: string | null;
  /** Poll again after this many ms (absent once finished). */
  retryAfterMs?: number;
  /** This URL. */
  statusUrl: string;
}

/** The status of scan `id`. @throws NotFoundError for an unknown id. */
export async function scanStatusOf(store: Store, id: string): Promise<ScanStatusView> {
  if (!isScanId(id)) throw new NotFoundError(`No scan ${id}`);
  const [kept, pending] = await Promise.all([
    store.history.lookup(id),
    store.history.status(id),
  ]);
  if (kept) {
    return {
      id,
      domain: kept.domain,
      status: kept.entry.status === "ok" ? "done" : "failed",
      step: null,
      stepId: null,
      queuedAt: null,
      startedAt: null,
      finishedAt: kept.entry.scannedAt,
      report: linksOf(kept.domain, id),
      score: kept.entry.score,
      grade: kept.entry.grade,
      statusUrl: scanStatusPath(id),
    };
  }
  if (!pending) throw new NotFoundError(`No scan ${id}`);
  return {
    id,
    domain: pending.domain,
    status: pending.state,
    step: pending.step,
    stepId: pending.stepId ?? null,
    queuedAt: new Date(pending.queuedAt).toISOString(),
    startedAt: pending.startedAt === null ? null : new Date(pending.startedAt).toISOString(),
    finishedAt: null,
    report: null,
    score: null,
    grade: null,
    retryAfterMs: 1500,
    statusUrl: scanStatusPath(id),
  };
}
