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

// The AI Visibility Checker: a whole scan, and the analysis of an already fetched snapshot.
export {
  analyseSnapshot,
  type ScanDeps,
  type ScanOutcome,
  scanSite,
} from "./lib/visibility/scan.ts";
export type { ScanRecord } from "./lib/visibility/record.ts";
export { gradeFor, GRADES, PILLARS } from "./lib/visibility/score.ts";

// Its building blocks: robots.txt verdicts per crawler, the crawler registry, llms.txt validation.
export { analyseRobots, type CrawlerAccess, type RobotsAnalysis } from "./lib/visibility/robots.ts";
export { type Crawler, type CrawlerRole, CRAWLERS } from "./lib/visibility/crawlers.ts";
export { type LlmsTxtReport, validateLlmsTxt } from "./lib/visibility/llms_txt.ts";

// The Schema Markup Generator: a whole scan of one URL, and the analysis of HTML already in hand.
export {
  analysePage,
  scanPage,
  type SchemaScanDeps,
  type SchemaScanOutcome,
} from "./lib/schema/scan.ts";
export type { SchemaScanRecord } from "./lib/structured/record.ts";
export { type Extraction, extractPage } from "./lib/structured/extract.ts";
export { validateItems, type Validation } from "./lib/structured/validate.ts";
export { generateGraph, type GenerateInput } from "./lib/structured/generate.ts";
// Structured data as RDF: every RDFa triple of a page, and how each value of an extracted item
// reads (DetectedItem.terms: literal or IRI, with its datatype and language).
export { extractRdfaTriples } from "./lib/structured/rdfa_triples.ts";
export type { BlankNode, Literal, NamedNode, Term, Triple } from "./lib/structured/rdf_terms.ts";
export type { DetectedItem, ValueTerm } from "./lib/structured/record.ts";

// Configuration, and the one guarded way out to the network (every outbound request uses it).
export { type Config, ConfigError, loadConfig } from "./lib/config.ts";
export { createGuardedFetcher, type GuardedFetcherOptions } from "./lib/net/guarded_fetch.ts";

// Off-site presence (Wikidata, Wikipedia, Common Crawl) and its cache.
export { checkOffSite, OffSiteCache } from "./lib/offsite/offsite.ts";

// The challenge verifier and the shared (Upstash Redis) rate limiter.
export { turnstileVerifier } from "./lib/accounts/challenge.ts";
export { RedisLimiter } from "./lib/limits/limiter_redis.ts";
export { LimiterUnavailableError } from "./lib/limits/limiter.ts";
