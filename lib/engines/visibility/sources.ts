/**
 * The vendors' and standards' own documentation that several signals rest on, each with the day it
 * was last read to confirm what we cite it for. A signal names the entries it rests on in its
 * `learn.sources` (a source only one signal cites may be written in that signal's module instead).
 */
import type { DatedSource } from "../../kit/dated_source.ts";

/** A page of a vendor's or standard's own documentation that a signal's rule rests on. */
export interface LearnSource extends DatedSource {
  /** Who publishes it ("Google Search Central", "OpenAI", "IETF"). */
  by: string;
  title: string;
}

/**
 * When each entry was last checked: re-read on 2026-11-26 (a stored copy of the page, through the
 * project's search tool) for the entries marked `CHECKED`; the others were checked to exist when
 * they were first cited (2026-11-25, commit 165fbe8) and not re-read since.
 */
const CHECKED = "2026-11-26";
const FIRST_CITED = "2026-11-25";

/** The documentation the signals cite. */
export const SOURCES = {
  openai: {
    by: "OpenAI",
    title: "Overview of OpenAI crawlers",
    url: "https://developers.openai.com/api/docs/bots",
    checked: CHECKED,
  },
  anthropic: {
    by: "Anthropic",
    title: "Does Anthropic crawl data from the web, and how can site owners block the crawler?",
    url:
      "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
    checked: FIRST_CITED,
  },
  perplexity: {
    by: "Perplexity",
    title: "Perplexity crawlers",
    url: "https://docs.perplexity.ai/docs/resources/perplexity-crawlers",
    checked: CHECKED,
  },
  googleCrawlers: {
    by: "Google",
    title: "Google's common crawlers (Googlebot, Google-Extended)",
    url: "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers",
    checked: CHECKED,
  },
  googleUserFetchers: {
    by: "Google",
    title: "List of Google user-triggered fetchers (Google-Agent, Gemini Notebook)",
    url:
      "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers",
    checked: CHECKED,
  },
  googleAgent: {
    by: "Google",
    title: "Allow Google-Agent traffic (in your CDN, firewall or bot-detection service)",
    url: "https://developers.google.com/crawling/docs/crawlers-fetchers/allow-google-agent",
    checked: CHECKED,
  },
  mistral: {
    by: "Mistral AI",
    title: "Mistral AI crawlers (MistralAI-User, MistralAI-Index, MistralAI-Training)",
    url: "https://docs.mistral.ai/robots",
    checked: CHECKED,
  },
  googleRobots: {
    by: "Google",
    title: "How Google interprets the robots.txt specification",
    url: "https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec",
    checked: CHECKED,
  },
  rfc9309: {
    by: "IETF",
    title: "RFC 9309: Robots Exclusion Protocol",
    url: "https://datatracker.ietf.org/doc/html/rfc9309",
    checked: CHECKED,
  },
  robotsMeta: {
    by: "Google Search Central",
    title: "Robots meta tag, data-nosnippet and X-Robots-Tag specifications",
    url: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
    checked: CHECKED,
  },
  blockIndexing: {
    by: "Google Search Central",
    title: "Block Search indexing with noindex",
    url: "https://developers.google.com/search/docs/crawling-indexing/block-indexing",
    checked: FIRST_CITED,
  },
  /**
   * Read through verbatim quotes of the page (its stored copy was not reachable): "You don't need
   * to create new machine readable files, AI text files, markup, or Markdown to appear in Google
   * Search ... as Google Search itself doesn't use them", and llms.txt "will neither harm nor help".
   */
  googleAiOptimization: {
    by: "Google Search Central",
    title: "Optimizing your site for generative AI features in Google Search",
    url: "https://developers.google.com/search/docs/fundamentals/ai-optimization-guide",
    checked: CHECKED,
  },
  aiFeatures: {
    by: "Google Search Central",
    title: "AI features and your website",
    url: "https://developers.google.com/search/docs/appearance/ai-features",
    checked: CHECKED,
  },
  javascript: {
    by: "Google Search Central",
    title: "Understand the JavaScript SEO basics",
    url:
      "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics",
    checked: CHECKED,
  },
  helpful: {
    by: "Google Search Central",
    title: "Creating helpful, reliable, people-first content",
    url: "https://developers.google.com/search/docs/fundamentals/creating-helpful-content",
    checked: CHECKED,
  },
  structuredData: {
    by: "Google Search Central",
    title: "Introduction to structured data markup in Google Search",
    url:
      "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
    checked: FIRST_CITED,
  },
  organization: {
    by: "Google Search Central",
    title: "Organization structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/organization",
    checked: FIRST_CITED,
  },
  siteNames: {
    by: "Google Search Central",
    title: "Site names in Google Search (WebSite structured data)",
    url: "https://developers.google.com/search/docs/appearance/site-names",
    checked: CHECKED,
  },
  breadcrumb: {
    by: "Google Search Central",
    title: "Breadcrumb (BreadcrumbList) structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/breadcrumb",
    checked: FIRST_CITED,
  },
  sameAs: {
    by: "schema.org",
    title: "The sameAs property",
    url: "https://schema.org/sameAs",
    checked: FIRST_CITED,
  },
  llmstxt: {
    by: "llmstxt.org",
    title: "The /llms.txt file",
    url: "https://llmstxt.org/",
    checked: CHECKED,
  },
  sitemaps: {
    by: "sitemaps.org",
    title: "Sitemaps XML format",
    url: "https://www.sitemaps.org/protocol.html",
    checked: FIRST_CITED,
  },
  buildSitemap: {
    by: "Google Search Central",
    title: "Build and submit a sitemap",
    url: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap",
    checked: FIRST_CITED,
  },
  canonical: {
    by: "Google Search Central",
    title: "How to specify a canonical URL",
    url: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    checked: FIRST_CITED,
  },
  titleLink: {
    by: "Google Search Central",
    title: "Influencing title links in search results",
    url: "https://developers.google.com/search/docs/appearance/title-link",
    checked: CHECKED,
  },
  snippet: {
    by: "Google Search Central",
    title: "Control your snippets in search results",
    url: "https://developers.google.com/search/docs/appearance/snippet",
    checked: CHECKED,
  },
  wikidata: {
    by: "Wikidata",
    title: "Wikidata:Notability",
    url: "https://www.wikidata.org/wiki/Wikidata:Notability",
    checked: FIRST_CITED,
  },
  commonCrawl: {
    by: "Common Crawl",
    title: "CCBot",
    url: "https://commoncrawl.org/ccbot",
    checked: FIRST_CITED,
  },
} as const satisfies Record<string, LearnSource>;
