/**
 * The vendors' and standards' own documentation that the "learn more" texts (learn_texts.ts) rest
 * on. Each address was checked to exist before it was cited.
 */

/** A page of a vendor's or standard's own documentation. */
export interface LearnSource {
  /** Who publishes it ("Google Search Central", "OpenAI", "IETF"). */
  by: string;
  title: string;
  url: string;
}

/** The documentation the explanations cite (each address checked to exist). */
export const SOURCES = {
  openai: {
    by: "OpenAI",
    title: "Overview of OpenAI crawlers",
    url: "https://developers.openai.com/api/docs/bots",
  },
  anthropic: {
    by: "Anthropic",
    title: "Does Anthropic crawl data from the web, and how can site owners block the crawler?",
    url:
      "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
  },
  perplexity: {
    by: "Perplexity",
    title: "Perplexity crawlers",
    url: "https://docs.perplexity.ai/docs/resources/perplexity-crawlers",
  },
  googleCrawlers: {
    by: "Google",
    title: "Google's common crawlers (Googlebot, Google-Extended)",
    url: "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers",
  },
  googleRobots: {
    by: "Google",
    title: "How Google interprets the robots.txt specification",
    url: "https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec",
  },
  rfc9309: {
    by: "IETF",
    title: "RFC 9309: Robots Exclusion Protocol",
    url: "https://datatracker.ietf.org/doc/html/rfc9309",
  },
  robotsMeta: {
    by: "Google Search Central",
    title: "Robots meta tag, data-nosnippet and X-Robots-Tag specifications",
    url: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
  },
  blockIndexing: {
    by: "Google Search Central",
    title: "Block Search indexing with noindex",
    url: "https://developers.google.com/search/docs/crawling-indexing/block-indexing",
  },
  aiFeatures: {
    by: "Google Search Central",
    title: "AI features and your website",
    url: "https://developers.google.com/search/docs/appearance/ai-features",
  },
  javascript: {
    by: "Google Search Central",
    title: "Understand the JavaScript SEO basics",
    url:
      "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics",
  },
  helpful: {
    by: "Google Search Central",
    title: "Creating helpful, reliable, people-first content",
    url: "https://developers.google.com/search/docs/fundamentals/creating-helpful-content",
  },
  structuredData: {
    by: "Google Search Central",
    title: "Introduction to structured data markup in Google Search",
    url:
      "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
  },
  organization: {
    by: "Google Search Central",
    title: "Organization structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/organization",
  },
  siteNames: {
    by: "Google Search Central",
    title: "Site names in Google Search (WebSite structured data)",
    url: "https://developers.google.com/search/docs/appearance/site-names",
  },
  breadcrumb: {
    by: "Google Search Central",
    title: "Breadcrumb (BreadcrumbList) structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/breadcrumb",
  },
  sameAs: { by: "schema.org", title: "The sameAs property", url: "https://schema.org/sameAs" },
  llmstxt: { by: "llmstxt.org", title: "The /llms.txt file", url: "https://llmstxt.org/" },
  sitemaps: {
    by: "sitemaps.org",
    title: "Sitemaps XML format",
    url: "https://www.sitemaps.org/protocol.html",
  },
  buildSitemap: {
    by: "Google Search Central",
    title: "Build and submit a sitemap",
    url: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap",
  },
  canonical: {
    by: "Google Search Central",
    title: "How to specify a canonical URL",
    url: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
  },
  titleLink: {
    by: "Google Search Central",
    title: "Influencing title links in search results",
    url: "https://developers.google.com/search/docs/appearance/title-link",
  },
  snippet: {
    by: "Google Search Central",
    title: "Control your snippets in search results",
    url: "https://developers.google.com/search/docs/appearance/snippet",
  },
  wikidata: {
    by: "Wikidata",
    title: "Wikidata:Notability",
    url: "https://www.wikidata.org/wiki/Wikidata:Notability",
  },
  commonCrawl: { by: "Common Crawl", title: "CCBot", url: "https://commoncrawl.org/ccbot" },
} as const satisfies Record<string, LearnSource>;

/** A key of {@link SOURCES}. */
export type SourceKey = keyof typeof SOURCES;
