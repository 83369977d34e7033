/**
 * The public library entry point: what scripts and other programs import to use the two scanners
 * without the server. These names stay stable when files move inside `lib/`.
 *
 * ```ts
 * import { loadConfig, scanSite } from "./mod.ts";
 *
 * const { record } = await scanSite("example.com", { config: loadConfig() });
 * console.log(record.status, record.result?.score);
 * ```
 *
 * @module
 */

// The AI Visibility Checker: a whole scan, and the analysis of an already fetched snapshot
// (`analyseSnapshot(snapshot, offSite, now, audit?)` returns the record's `result`).
export {
  analyseSnapshot,
  type ScanDeps,
  type ScanOutcome,
  scanSite,
} from "./lib/engines/visibility/scan.ts";
import type {
  OffSite as VisibilityOffSite,
  Result as VisibilityResult,
  ScanRecord as VisibilityScanRecord,
} from "./lib/engines/visibility/record.ts";
/**
 * A visibility scan's stored record: the domain, `status` ("ok" or "failed"), `scannedAt`, the
 * `result` (null when the scan failed) and the off-site presence (`offSite`).
 */
export type ScanRecord = VisibilityScanRecord;
/** A visibility record's `result`: score, grade, pillars with every signal, the top issues. */
export type Result = VisibilityResult;
/** Presence on Wikidata, Wikipedia and Common Crawl, as `analyseSnapshot` takes it. */
export type OffSite = VisibilityOffSite;
export { gradeFor, GRADES, PILLARS } from "./lib/engines/visibility/score.ts";

// What `analyseSnapshot` takes: the snapshot (every fetch of one scan and the home page parsed
// once), each fetch's outcome (a result with status, headers and body, or a typed error), the
// page facts, the site audit's sample, and the scan's target (`normaliseTarget` builds one from
// what a user typed).
export type { FetchOutcome, Snapshot } from "./lib/engines/visibility/snapshot_types.ts";
export { FetchError, type FetchErrorKind, type FetchResult } from "./lib/kit/net/types.ts";
export type { PageFacts } from "./lib/engines/html/types.ts";
export type { AuditResult } from "./lib/engines/visibility/audit/types.ts";
export { InvalidTargetError, normaliseTarget, type Target } from "./lib/kit/net/target.ts";

// robots.txt (RFC 9309): parse a file once, then ask for the verdict of any user-agent product
// token on any URL (`robotsVerdict(parsed, "MyBot/1.0", "https://example.com/path?q")`: allowed,
// which group decided, the deciding rule), not only the registry's crawlers; `analyseRobots`
// classes a fetched file for every crawler of the registry.
export {
  type ParsedRobotsTxt,
  parseRobotsTxt,
  productToken,
  type RobotsRule,
  type RobotsVerdict,
  robotsVerdict,
} from "./lib/engines/visibility/robots.ts";

// Its other building blocks: robots.txt verdicts per registry crawler, the crawler registry,
// llms.txt validation.
export {
  analyseRobots,
  type CrawlerAccess,
  type RobotsAnalysis,
} from "./lib/engines/visibility/robots.ts";
export { type Crawler, type CrawlerRole, CRAWLERS } from "./lib/engines/visibility/crawlers.ts";
export { type LlmsTxtReport, validateLlmsTxt } from "./lib/engines/visibility/llms_txt.ts";

// The Schema Markup Generator: a whole scan of one URL, and the analysis of HTML already in hand.
export {
  analysePage,
  scanPage,
  type SchemaScanDeps,
  type SchemaScanOutcome,
} from "./lib/engines/schema/scan.ts";
import type { SchemaScanRecord as StructuredScanRecord } from "./lib/engines/structured/record.ts";
/**
 * A schema scan's stored record: the page read, every structured-data item found, the findings,
 * rich-result eligibility and the generated JSON-LD.
 */
export type SchemaScanRecord = StructuredScanRecord;
export { type Extraction, extractPage } from "./lib/engines/structured/extract.ts";
export { validateItems, type Validation } from "./lib/engines/structured/validate.ts";
export { generateGraph, type GenerateInput } from "./lib/engines/structured/generate.ts";
// Structured data as RDF: every RDFa triple of a page, and how each value of an extracted item
// reads (DetectedItem.terms: literal or IRI, with its datatype and language).
export { extractRdfaTriples } from "./lib/engines/structured/rdfa/triples.ts";
export type {
  BlankNode,
  Literal,
  NamedNode,
  Term,
  Triple,
} from "./lib/engines/structured/rdf_terms.ts";
export type { DetectedItem, ValueTerm } from "./lib/engines/structured/record.ts";

// Configuration, and the one guarded way out to the network (every outbound request uses it).
export { type Config, ConfigError, loadConfig } from "./lib/kit/config.ts";
export { createGuardedFetcher, type GuardedFetcherOptions } from "./lib/kit/net/guarded_fetch.ts";

// Off-site presence (Wikidata, Wikipedia, Common Crawl) and its cache.
export { checkOffSite, OffSiteCache } from "./lib/engines/offsite/offsite.ts";

// The challenge verifier and the shared (Upstash Redis) rate limiter.
export { turnstileVerifier } from "./lib/kit/auth/challenge.ts";
export { RedisLimiter } from "./lib/kit/limits/limiter_redis.ts";
export { LimiterUnavailableError } from "./lib/kit/limits/limiter.ts";

// Server logs (docs/logs.md): read an access log (plain or gzip, any of the formats in `FORMATS`,
// detected or named), judge each crawler hit against its vendor's published addresses, reverse DNS
// or Web Bot Auth (verified, spoofed or unverifiable), keep only per-day aggregates (which merge),
// and report per crawler and AI product.
export { analyseLog, type AnalyseOptions, type LogAnalysis } from "./lib/features/logs/analyse.ts";
export { readAccessLog, type ReadOptions, type ReadSummary } from "./lib/features/logs/read_log.ts";
export {
  type Aggregates,
  emptyAggregates,
  mergeAggregates,
  type Verdict,
} from "./lib/features/logs/aggregate.ts";
export { type LogReport, logReport, type ReportContext } from "./lib/features/logs/report.ts";
export { FORMATS, type LogFormat, type LogFormatId } from "./lib/features/logs/formats.ts";
export { type LoadedRanges, loadRanges, type RangeSources } from "./lib/features/logs/ip_ranges.ts";
export { createCrawlerDns, type DnsQueries } from "./lib/kit/net/crawler_dns.ts";
