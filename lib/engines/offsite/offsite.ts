/**
 * The off-site step of a visibility scan: is the site's entity on Wikidata and Wikipedia, and is
 * the domain in Common Crawl?
 *
 * The three checks run in parallel, each under its own deadline and the caller's signal. A lookup
 * that fails makes its check "unknown" with the reason, never "not_found": absence is only
 * claimed when every lookup it rests on answered. Definitive answers are cached per domain for
 * 24 hours (the crawl list for 6), failures for 2 minutes, so a passing outage heals quickly
 * without a burst of scans repeating the failing request. Requests go through the cache's
 * {@link HostEtiquette}: one at a time per host, paced, and never while a host backs us off.
 *
 * @example
 * ```ts
 * const offSite = await checkOffSite({
 *   domain: "example.com",
 *   name: "Example Inc.",
 *   fetcher,
 *   config,
 *   signal: scanDeadline,
 * });
 * offSite?.wikidata.status; // "found" | "not_found" | "unknown"
 * ```
 * @module
 */
import type { Config } from "../../kit/config.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import type { OffSite, OffSiteCheck } from "./types.ts";
import { DOMAIN_RESULT_TTL_MS, FAILURE_TTL_MS, OffSiteCache } from "./cache.ts";
import { lookupCommonCrawl } from "./common_crawl.ts";
import {
  type DeadlineTimer,
  type Lookup,
  type LookupContext,
  type OffSiteCheckName,
  withDeadline,
} from "./lookup.ts";
import { assertDomain } from "./site.ts";
import { lookupWikidata, type WikidataOutcome } from "./wikidata.ts";
import { decideWikipedia, searchWikipedia, type WikipediaSearch } from "./wikipedia.ts";

export { OffSiteCache } from "./cache.ts";
export { HostEtiquette } from "./etiquette.ts";

/** The configuration the off-site step reads. */
export type OffSiteConfig =
  & Pick<
    Config,
    "wikidataApiUrl" | "wikipediaApiUrl" | "commonCrawlIndexUrl" | "offsiteTimeoutMs"
  >
  & Partial<Pick<Config, "commonCrawlTimeoutMs">>;

/** Input of {@link checkOffSite}. */
export interface OffSiteInput {
  /** The normalised domain, e.g. "example.com" (lowercase, punycode, no www). */
  domain: string;
  /** The entity name inferred from the page (og:site_name, Organization name, title), if any. */
  name: string | null;
  /** All requests go through it; its default User-Agent is sent. */
  fetcher: GuardedFetcher;
  config: OffSiteConfig;
  /** Where answers are remembered; defaults to one cache shared by the process. */
  cache?: OffSiteCache;
  /** Aborts every lookup, e.g. when the scan's own deadline passes. */
  signal?: AbortSignal;
  /** The clock used for cache reads and writes (epoch ms); defaults to the cache's clock. */
  now?: () => number;
  /** Starts each check's deadline; defaults to a timer (tests fire theirs on an event). */
  deadline?: DeadlineTimer;
}

/**
 * The cache used when none is passed: process-wide, so the crawl list and recent answers are
 * shared by every scan without wiring.
 */
export const defaultOffSiteCache: OffSiteCache = new OffSiteCache({ maxEntries: 5000 });

/** Longest entity name searched: page titles can be whole sentences. */
const MAX_NAME_LENGTH = 120;

/**
 * Runs the three off-site checks for `domain` in parallel.
 *
 * Resolves within about `config.offsiteTimeoutMs` (each check has that deadline) and never
 * rejects. Returns null only when the step itself broke (a bug or a domain that was not
 * normalised), which the record reports as "off-site check failed".
 */
export async function checkOffSite(input: OffSiteInput): Promise<OffSite | null> {
  try {
    return await runChecks(input);
  } catch {
    return null;
  }
}

async function runChecks(input: OffSiteInput): Promise<OffSite> {
  const domain = assertDomain(input.domain);
  const name = cleanName(input.name);
  const { config, fetcher, signal } = input;
  const cache = input.cache ?? defaultOffSiteCache;
  const at = () => input.now?.();
  const timeoutMs = config.offsiteTimeoutMs;
  const nameKey = name?.toLowerCase() ?? "";

  // The Common Crawl index answers slow queries slowly (or with 504): it gets a longer budget.
  const ccTimeoutMs = Math.max(timeoutMs, config.commonCrawlTimeoutMs ?? 2 * timeoutMs);

  /** Runs one check under its own deadline, with caching of its answer. */
  const run = <T>(
    check: OffSiteCheckName,
    key: string,
    task: (ctx: LookupContext) => Promise<T>,
    onAbort: (reason: string) => T,
    definitive: (value: T) => boolean,
    budgetMs = timeoutMs,
  ): Promise<T> =>
    cached(
      cache,
      key,
      at,
      definitive,
      () =>
        withDeadline(
          budgetMs,
          signal,
          (s) => task({ fetcher, timeoutMs: budgetMs, signal: s, etiquette: cache.etiquette }),
          onAbort,
          check,
          input.deadline,
        ),
      () => signal?.aborted === true,
    );

  const [wikidata, wikipediaSearch, commonCrawl] = await Promise.all([
    run<WikidataOutcome>(
      "wikidata",
      `wikidata:${domain}:${nameKey}`,
      (ctx) => lookupWikidata(ctx, config.wikidataApiUrl, domain, name),
      (reason) => ({
        check: { status: "unknown", detail: `Wikidata lookup ${reason}.`, url: null },
        sitelink: { known: false },
      }),
      (outcome) => outcome.check.status !== "unknown" && outcome.sitelink.known,
    ),
    run<Lookup<WikipediaSearch>>(
      "wikipedia",
      `wikipedia:${domain}:${nameKey}`,
      (ctx) => searchWikipedia(ctx, config.wikipediaApiUrl, domain, name),
      (reason) => ({ ok: false, reason }),
      (search) => search.ok,
    ),
    run<OffSiteCheck>(
      "commonCrawl",
      `commoncrawl:${domain}`,
      (ctx) => lookupCommonCrawl(ctx, config.commonCrawlIndexUrl, domain, cache, at()),
      (reason) => ({ status: "unknown", detail: `Common Crawl lookup ${reason}.`, url: null }),
      (check) => check.status !== "unknown",
      ccTimeoutMs,
    ),
  ]);

  return {
    wikidata: wikidata.check,
    wikipedia: decideWikipedia(
      config.wikipediaApiUrl,
      domain,
      name,
      wikidata.sitelink,
      wikipediaSearch,
    ),
    commonCrawl,
  };
}

/**
 * Returns the cached value under `key`, or loads it and keeps it: a definitive answer for a day,
 * a failure briefly (so a burst of scans does not hammer a service that just failed or throttled
 * us), and nothing when the caller cancelled (that says nothing about the service).
 */
async function cached<T>(
  cache: OffSiteCache,
  key: string,
  at: () => number | undefined,
  definitive: (value: T) => boolean,
  load: () => Promise<T>,
  cancelled: () => boolean,
): Promise<T> {
  const hit = cache.get<T>(key, at());
  if (hit !== undefined) return structuredClone(hit);
  const value = await load();
  if (definitive(value)) cache.set(key, structuredClone(value), DOMAIN_RESULT_TTL_MS, at());
  else if (!cancelled()) cache.set(key, structuredClone(value), FAILURE_TTL_MS, at());
  return value;
}

/** The entity name as it is searched: one line, trimmed, bounded; null when empty. */
function cleanName(name: string | null): string | null {
  const flat = (name ?? "").replace(/\p{Cc}/gu, " ").replace(/\s+/g, " ").trim();
  return flat ? flat.slice(0, MAX_NAME_LENGTH).trim() : null;
}
