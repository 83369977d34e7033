/**
 * The vendors' published address lists, loaded into one prefix tree (ip_trie.ts). Each list comes
 * from the first place that has it: a local directory of the vendors' files under their published
 * names (LOG_IP_RANGES_DIR, so operators and tests can pin them), a copy fetched through the
 * guarded fetcher and kept with the date it was fetched (refreshed after a day), or the dated
 * snapshot shipped with the code (ip_ranges_snapshot.json). A list none of them has is
 * "unavailable": hits it would decide are then unverifiable, and the report says why. The server
 * reads the directory and fetches the lists as text (range_fetch.ts) and hands them to the worker
 * that reads a log, which builds the tree here: a list is parsed only there.
 */
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { PrefixTrie } from "./ip_trie.ts";
import { RANGE_LISTS, type RangeList } from "./verify_sources.ts";
import { fetchList, type RangeCache } from "./range_fetch.ts";

export { memoryRangeCache, type RangeCache } from "./range_fetch.ts";
import SNAPSHOT from "./ip_ranges_snapshot.json" with { type: "json" };

/** Where a list was read from, and as of when. */
export interface RangeListState {
  url: string;
  fileName: string;
  tokens: string[];
  from: "directory" | "fetched" | "snapshot" | "unavailable";
  /** The list's own `creationTime` when it has one, else the day it was fetched or snapped. */
  asOf: string | null;
  /** Ranges read from it. */
  ranges: number;
  /** Why it is unavailable or partly unreadable. */
  problem?: string;
}

/** The loaded lists: the tree and each list's state. */
export interface LoadedRanges {
  trie: PrefixTrie;
  lists: RangeListState[];
}

/** A list's published JSON read into CIDR strings, or why it cannot be. */
export function parseRangeList(
  text: string,
): { creationTime: string | null; cidrs: string[] } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  const out: string[] = [];
  const take = (item: unknown) => {
    if (typeof item === "string") out.push(item);
    else if (item && typeof item === "object") {
      const o = item as Record<string, unknown>;
      for (const k of ["ipv4Prefix", "ipv6Prefix", "ip_prefix", "ipv6_prefix", "cidr", "prefix"]) {
        if (typeof o[k] === "string") out.push(o[k] as string);
      }
    }
  };
  let creationTime: string | null = null;
  if (Array.isArray(value)) value.forEach(take);
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.creationTime === "string") creationTime = o.creationTime;
    const list = o.prefixes ?? o.ranges ?? o.ips;
    if (!Array.isArray(list)) return "no list of prefixes";
    list.forEach(take);
  } else return "no list of prefixes";
  return { creationTime, cidrs: out };
}

/** What {@link loadRanges} uses. */
export interface RangeSources {
  /** LOG_IP_RANGES_DIR: a directory of the vendors' files under their published names. */
  directory?: string;
  /**
   * The directory's lists already read elsewhere, by file name (the server reads them and hands
   * the texts to the reader's worker, which reads no file but its code).
   */
  files?: Record<string, string>;
  /** Fetches missing lists when given (never in tests without a fake endpoint). */
  fetcher?: GuardedFetcher;
  cache?: RangeCache;
  now?: () => number;
  /** Use the shipped snapshot for lists found nowhere else (default true). */
  snapshot?: boolean;
  /** Overrides the URL of a list (tests point lists at a loopback server). */
  urlOf?: (list: RangeList) => string;
  /**
   * Lists already fetched elsewhere, by URL, with when (the server fetches and caches them and
   * hands the texts to the reader's worker, which fetches nothing).
   */
  fetched?: Record<string, { text: string; fetchedAt: number }>;
}

const snapshotLists = (SNAPSHOT as { lists: Record<string, unknown> }).lists;
/** The day the shipped snapshot was assembled. */
export const SNAPSHOT_DATE: string = (SNAPSHOT as { assembled: string }).assembled;

/** Loads every published list and builds the tree. Never throws: a list that fails is reported. */
export async function loadRanges(src: RangeSources = {}): Promise<LoadedRanges> {
  const trie = new PrefixTrie();
  const now = src.now ?? Date.now;
  const lists: RangeListState[] = [];
  for (const list of RANGE_LISTS) {
    const state: RangeListState = {
      url: list.url,
      fileName: list.fileName,
      tokens: list.tokens,
      from: "unavailable",
      asOf: null,
      ranges: 0,
    };
    let text: string | null = src.files?.[list.fileName] ?? null;
    let fetchedAt: string | null = null;
    if (text !== null) state.from = "directory";
    if (text === null && src.directory) {
      try {
        text = await Deno.readTextFile(`${src.directory}/${list.fileName}`);
        state.from = "directory";
      } catch { /* not there: next source */ }
    }
    const handed = src.fetched?.[list.url];
    if (text === null && handed) {
      text = handed.text;
      state.from = "fetched";
      fetchedAt = new Date(handed.fetchedAt).toISOString();
    }
    if (text === null && src.fetcher) {
      const url = src.urlOf ? src.urlOf(list) : list.url;
      const got = await fetchList(url, src.fetcher, src.cache, now);
      if (got.problem) state.problem = got.problem;
      text = got.text;
      if (text !== null) {
        state.from = "fetched";
        fetchedAt = new Date(got.fetchedAt).toISOString();
      }
    }
    if (text === null && src.snapshot !== false && list.fileName in snapshotLists) {
      text = JSON.stringify(snapshotLists[list.fileName]);
      state.from = "snapshot";
      fetchedAt = SNAPSHOT_DATE;
    }
    if (text === null) {
      state.problem ??= "not in the directory, not fetched, not in the snapshot";
      lists.push(state);
      continue;
    }
    const parsed = parseRangeList(text);
    if (typeof parsed === "string") {
      state.from = "unavailable";
      state.problem = `unreadable: ${parsed}`;
      lists.push(state);
      continue;
    }
    let bad = 0;
    for (const cidr of parsed.cidrs) {
      if (trie.add(cidr, list.bit)) state.ranges++;
      else bad++;
    }
    if (bad) state.problem = `${bad} entries are not address ranges`;
    state.asOf = parsed.creationTime ?? fetchedAt;
    lists.push(state);
  }
  return { trie, lists };
}

/** The bit mask of lists that loaded (a list that did not cannot say an address is outside it). */
export function loadedMask(ranges: LoadedRanges): number {
  return maskOf(ranges, (l) => l.from !== "unavailable");
}

/**
 * The bit mask of lists current enough to say an address is outside them: read from the
 * operator's directory or fetched from the vendor. The shipped snapshot can verify an address but
 * never refute one: the vendor may have added ranges since it was taken.
 */
export function currentMask(ranges: LoadedRanges): number {
  return maskOf(ranges, (l) => l.from === "directory" || l.from === "fetched");
}

function maskOf(ranges: LoadedRanges, keep: (l: RangeListState) => boolean): number {
  let mask = 0;
  for (const l of ranges.lists) {
    if (!l.ranges || !keep(l)) continue;
    const list = RANGE_LISTS.find((r) => r.url === l.url);
    if (list) mask |= 1 << list.bit;
  }
  return mask;
}
