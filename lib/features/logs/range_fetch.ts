/**
 * The vendors' address lists as text, where the server finds them: the operator's directory
 * (LOG_IP_RANGES_DIR, under the vendors' published file names) and copies fetched through the
 * guarded fetcher (2 MiB at most each, kept with the time fetched and refetched after a day).
 * Nothing here parses a list: the texts go to the worker that reads a log (read_job.ts, through
 * ip_ranges.ts's loadRanges), so a vendor's answer is read where its cost is bounded, never on the
 * server's thread.
 */
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { RANGE_LISTS, type RangeList } from "./verify_sources.ts";

/** A fetched copy kept between loads (per process; the server keeps one cache). */
export interface RangeCache {
  get(url: string): { text: string; fetchedAt: number } | undefined;
  set(url: string, entry: { text: string; fetchedAt: number }): void;
}

/** A cache in memory. */
export function memoryRangeCache(): RangeCache {
  const m = new Map<string, { text: string; fetchedAt: number }>();
  return { get: (u) => m.get(u), set: (u, e) => void m.set(u, e) };
}

const DAY_MS = 86_400_000;
/** The largest list read (the largest published list is far smaller). */
export const MAX_LIST_BYTES = 2 * 1024 * 1024;

/**
 * One list fetched (or its copy of less than a day), as text; `problem` says why a fetch failed
 * (the copy kept, if any, is still given).
 */
export async function fetchList(
  url: string,
  fetcher: GuardedFetcher,
  cache: RangeCache | undefined,
  now: () => number,
): Promise<{ text: string | null; fetchedAt: number; problem?: string }> {
  const cached = cache?.get(url);
  if (cached && now() - cached.fetchedAt < DAY_MS) return cached;
  try {
    const r = await fetcher.fetch(url, {
      maxBytes: MAX_LIST_BYTES,
      timeoutMs: 10_000,
      headers: { accept: "application/json" },
    });
    if (r.status === 200 && !r.truncated) {
      const entry = { text: r.body, fetchedAt: now() };
      cache?.set(url, entry);
      return entry;
    }
    const problem = r.truncated ? "larger than 2 MiB" : `answered ${r.status}`;
    return { text: cached?.text ?? null, fetchedAt: cached?.fetchedAt ?? now(), problem };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    return { text: cached?.text ?? null, fetchedAt: cached?.fetchedAt ?? now(), problem };
  }
}

/**
 * Every list fetched that could be (by URL), for a worker to read; those the operator's directory
 * holds (`skip`, by file name) are not fetched.
 */
export async function fetchLists(
  fetcher: GuardedFetcher,
  cache: RangeCache,
  now: () => number,
  skip: Record<string, unknown> = {},
  urlOf: (list: RangeList) => string = (l) => l.url,
): Promise<Record<string, { text: string; fetchedAt: number }>> {
  const out: Record<string, { text: string; fetchedAt: number }> = {};
  for (const list of RANGE_LISTS) {
    if (list.fileName in skip) continue;
    const got = await fetchList(urlOf(list), fetcher, cache, now);
    if (got.text !== null) out[list.url] = { text: got.text, fetchedAt: got.fetchedAt };
  }
  return out;
}

/**
 * The lists the operator's directory holds, by file name, as text (a missing or unreadable file
 * is left out: the next source is tried). Each is read up to {@link MAX_LIST_BYTES}.
 */
export async function directoryLists(directory: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const list of RANGE_LISTS) {
    const path = `${directory}/${list.fileName}`;
    try {
      const info = await Deno.stat(path);
      if (info.isFile && info.size <= MAX_LIST_BYTES) {
        out[list.fileName] = await Deno.readTextFile(path);
      }
    } catch { /* not there: the next source */ }
  }
  return out;
}
