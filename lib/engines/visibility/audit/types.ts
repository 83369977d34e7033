/**
 * The site audit's shapes. {@link AuditPageSchema} is the one row of the sampled-pages table that
 * the ScanRecord carries, inside the `discovery.site_sample` signal's `pages` field (the spec
 * leaves a signal's fields to us; docs/site-audit.md documents them). Everything else here stays
 * in the scan and never reaches the record.
 */
import { z } from "zod";
import type { Rendering } from "../client_rendering.ts";

/** What kind of page a sampled URL is (its template, as far as we can tell). */
export const PageTypeSchema = z.enum([
  "home",
  "about",
  "contact",
  "article",
  "product",
  "docs",
  "listing",
  "page",
]);
export type PageType = z.infer<typeof PageTypeSchema>;

/** How the fetch of a sampled page went. */
export const PageStateSchema = z.enum([
  "read", // fetched and analysed (any HTTP status)
  "robots", // not fetched: robots.txt disallows our own crawler
  "error", // the fetch failed (network, timeout, blocked address)
  "not_html", // answered, but not with HTML
  "budget", // not fetched: the audit's time budget (or the Crawl-delay bound) ran out
]);

/** One sampled page as the report shows it. */
export const AuditPageSchema = z.object({
  /** The URL asked for (same host as the home page). */
  url: z.string(),
  type: PageTypeSchema,
  /** Where the URL came from: the home page itself, the sitemap, or the home page's links. */
  source: z.enum(["home", "sitemap", "links"]),
  state: PageStateSchema,
  /** The final HTTP status, or null when there was no answer. */
  httpStatus: z.number().nullable(),
  /** Short names of the checks this page fails (e.g. "no author", "JS shell", "thin text", "noindex"). */
  fails: z.array(z.string()),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** Everything the site-level checks read about one sampled page (kept small: no HTML). */
export interface PageReport extends AuditPage {
  /** Path and query, for examples in details ("/blog/a"). */
  path: string;
  /** From a sitemap's <loc>. */
  inSitemap: boolean;
  title: string | null;
  /** The page's first `<h1>` (what a fix can title it with), when it has one. */
  heading?: string | null;
  description: string | null;
  /** "self", "missing", "home" (a non-home page pointing at the home page), "other", "foreign". */
  canonical: "self" | "missing" | "home" | "other" | "foreign" | null;
  /** Search crawler tokens that may not read this page (robots.txt path rules, noindex for it). */
  blockedFor: string[];
  /** noindex (or none) for every robot. */
  noindex: boolean;
  /**
   * How the server HTML renders (client_rendering.ts): a JavaScript shell, thin, or text; null
   * for a page not read.
   */
  rendering: Rendering | null;
  /** Structured data: none, present and valid, present with errors. */
  structured: "none" | "valid" | "invalid" | null;
  /** Article-like page: its author and date as found (null when absent). */
  author: boolean | null;
  date: boolean | null;
  /**
   * llms.txt v2 relations the page declares (HTML `<link>` or `Link:` header): its markdown
   * version and the llms.txt said to cover it; null when none (or the page was not read).
   */
  markdown?: string | null;
  describedBy?: string | null;
}

/** An llms.txt found in a subpath (llms.txt v2: it covers the pages under its folder). */
export interface LlmsFile {
  url: string;
  /** The folder it covers, e.g. "/docs/". */
  scope: string;
  /** Where we learnt of it: a page's rel="describedby", or a link in the root llms.txt. */
  foundVia: string;
  /** Fetched and in the llms.txt format (an H1 first); null when it could not be fetched. */
  valid: boolean | null;
  title: string | null;
  problems: string[];
}

/** What the audit found, for the site-level checks. */
export interface AuditResult {
  /** Pages asked for (home included). */
  requested: number;
  /** Every sampled page, home first; pages the budget cut are listed with state "budget". */
  pages: PageReport[];
  /** Candidates found (sitemap URLs and home-page links, after filtering), before sampling. */
  candidates: number;
  /** Crawl-delay that robots.txt asks of our crawler, in seconds, or null. */
  crawlDelaySec: number | null;
  /** Crawl-delay above the bound we wait: only as many pages as fit were read (maybe none). */
  delayLimited: boolean;
  /** The time budget ran out before every sampled page was read. */
  budgetHit: boolean;
  budgetMs: number;
  elapsedMs: number;
  /** llms.txt links checked: how many, and those that did not answer 2xx. */
  llmsLinks: { total: number; checked: number; broken: string[] } | null;
  /** Largest number of requests the audit had in flight to the site at once. */
  maxInFlight: number;
  /** llms.txt files found in subpaths, fetched (at most 2); absent on audits built by hand. */
  llmsFiles?: LlmsFile[];
}
