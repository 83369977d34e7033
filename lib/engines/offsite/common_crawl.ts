/**
 * Common Crawl presence: does the latest crawl hold captures of the domain?
 *
 * Common Crawl is a large part of what language models are trained on, so being in it is a real
 * signal. The index server lists its crawls in `collinfo.json`; we take the newest and ask its
 * CDX index for up to {@link CAPTURE_LIMIT} captures of the domain.
 *
 * SSRF: `collinfo.json` names a "cdx-api" URL per crawl. We never fetch it. The index URL is built
 * from the configured base and a crawl id that must match `CC-MAIN-YYYY-WW`.
 * @module
 */
import { z } from "zod";
import type { OffSiteCheck } from "./types.ts";
import { CRAWL_LIST_TTL_MS, type OffSiteCache } from "./cache.ts";
import { failed, getJson, type Lookup, type LookupContext, ok, request } from "./lookup.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

/** Captures asked for: enough to show presence, small enough to be cheap for the index. */
export const CAPTURE_LIMIT = 50;

/** The shape of a crawl id; anything else never reaches a URL. */
export const CRAWL_ID_PATTERN = /^CC-MAIN-\d{4}-\d{2}$/;

/** Cache key of the newest crawl id. */
export const CRAWL_LIST_KEY = "commoncrawl:latest";

const CollinfoSchema = z.array(z.unknown());
const CrawlSchema = z.object({ id: z.string() });
const CaptureSchema = z.object({ urlkey: z.string() }).or(z.object({ url: z.string() }));

/**
 * Looks up captures of `domain` in the newest crawl listed at `base`.
 *
 * "found" with the index query URL when there is at least one capture, "not_found" only for the
 * index's own "no captures" answer (a 404 whose body says "No Captures found"), "unknown" for
 * anything else: an empty 200, throttling (429, 503 "Slow Down"), 504 on a slow query, errors.
 */
export async function lookupCommonCrawl(
  ctx: LookupContext,
  base: string,
  domain: string,
  cache: OffSiteCache,
  at: number | undefined,
): Promise<OffSiteCheck> {
  const root = trimEnd(base, charsOf("/"));
  const crawl = await latestCrawl(ctx, root, cache, at);
  if (!crawl.ok) {
    return {
      status: "unknown",
      detail: `Common Crawl crawl list unavailable (${crawl.reason}).`,
      url: null,
    };
  }
  const id = crawl.value;
  const url = `${root}/${id}-index?` + new URLSearchParams({
    url: domain,
    matchType: "domain",
    output: "json",
    limit: String(CAPTURE_LIMIT),
  });
  const response = await request(ctx, url);
  if (!response.ok) {
    return {
      status: "unknown",
      detail: `Common Crawl index query failed (${response.reason}).`,
      url: null,
    };
  }
  const { status, body, truncated } = response.value;
  if (status === 404 && /no captures found/i.test(body)) {
    return {
      status: "not_found",
      detail: `No captures of ${domain} in ${id}, the latest Common Crawl.`,
      url,
    };
  }
  if (status < 200 || status > 299) {
    return {
      status: "unknown",
      detail: `Common Crawl index query failed (HTTP ${status}).`,
      url: null,
    };
  }
  const captures = countCaptures(body, truncated);
  if (captures === null || captures === 0) {
    // The index says "no captures" with a 404 and a JSON message (handled above); an empty or
    // unreadable 200 is not that answer, so absence is not established.
    return {
      status: "unknown",
      detail: `Common Crawl index query failed (${
        captures === 0 ? "empty answer" : "unexpected response shape"
      }).`,
      url: null,
    };
  }
  const amount = captures >= CAPTURE_LIMIT
    ? `At least ${captures} captures`
    : `${captures} capture${captures === 1 ? "" : "s"}`;
  return {
    status: "found",
    detail: `${amount} of ${domain} in ${id}, the latest Common Crawl.`,
    url,
  };
}

/** The newest valid crawl id, from the cache or `collinfo.json`. */
async function latestCrawl(
  ctx: LookupContext,
  root: string,
  cache: OffSiteCache,
  at: number | undefined,
): Promise<Lookup<string>> {
  const cached = cache.get<string>(CRAWL_LIST_KEY, at);
  if (cached !== undefined) return ok(cached);
  const list = await getJson(ctx, `${root}/collinfo.json`, CollinfoSchema);
  if (!list.ok) return list;
  const ids = list.value.flatMap((entry) => {
    const crawl = CrawlSchema.safeParse(entry);
    return crawl.success && CRAWL_ID_PATTERN.test(crawl.data.id) ? [crawl.data.id] : [];
  });
  if (ids.length === 0) return failed("no valid crawl id listed");
  // The list is newest first today; sorting makes that an assumption we do not need. Ids are
  // CC-MAIN-YYYY-WW with fixed widths, so string order is time order.
  const latest = ids.sort().at(-1)!;
  cache.set(CRAWL_LIST_KEY, latest, CRAWL_LIST_TTL_MS, at);
  return ok(latest);
}

/**
 * Counts capture lines of a CDX NDJSON answer; null when the body is not NDJSON of captures.
 * A cut body loses its last, possibly partial, line.
 */
function countCaptures(body: string, truncated: boolean): number | null {
  const lines = body.split("\n").map((l) => l.trim());
  if (truncated) lines.pop();
  const filled = lines.filter((l) => l.length > 0);
  let count = 0;
  for (const line of filled) {
    try {
      if (CaptureSchema.safeParse(JSON.parse(line)).success) count++;
    } catch {
      // Not JSON: counted as not a capture.
    }
  }
  return filled.length > 0 && count === 0 ? null : count;
}
