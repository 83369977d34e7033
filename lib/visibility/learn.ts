/**
 * "Learn more": what each check of the AI visibility report means, in plain words, why AI systems
 * care, how we test it, and the vendors' own documentation it rests on. One source for the report
 * page (/learn/<id>), the CLI (lib/visibility/format.ts) and MCP (lib/mcp/visibility.ts); the texts
 * themselves are in learn_texts.ts, keyed by signal id. tests/learn_test.ts holds every signal id
 * the pillars can emit to an entry here.
 */
import { LEARN_TEXTS } from "./learn_texts.ts";

/** A page of a vendor's or standard's own documentation. */
export interface LearnSource {
  /** Who publishes it ("Google Search Central", "OpenAI", "IETF"). */
  by: string;
  title: string;
  url: string;
}

/** The explanation of one check. */
export interface LearnEntry {
  /** The signal id (`access.edge`). */
  id: string;
  /** The pillar the check belongs to (`access`). */
  pillar: string;
  /** The check's name as the report shows it. */
  title: string;
  /** What the check is about, for someone who has never heard of it. */
  what: string;
  /** Why AI search engines and assistants care. */
  why: string;
  /** How this checker tests it. */
  how: string;
  /** The vendors' and standards' own documentation. */
  sources: LearnSource[];
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

/** What a gate is, in plain words, and why it caps the whole score (keyed by gate id). */
export const GATE_TEXT: Record<string, { name: string; why: string }> = {
  blanket_disallow: {
    name: "robots.txt tells every crawler to stay out of the whole site",
    why:
      "A `Disallow: /` for all crawlers asks ChatGPT, Perplexity, Claude and Google alike not to read any page, so none of them can quote it.",
  },
  search_crawlers_blocked: {
    name: "robots.txt blocks the crawlers of AI search engines",
    why:
      "The crawlers that AI search engines use to find pages to cite are told to stay away, so the site cannot appear in their answers.",
  },
  noindex: {
    name: "the home page asks not to be indexed (noindex)",
    why:
      "A noindex rule keeps the page out of the indexes AI answers are built from, whatever else the page does well.",
  },
  edge_blocks_ai: {
    name: "the site's CDN or firewall turns AI crawlers away",
    why:
      "When an AI crawler asks for the home page, the edge answers with an error or a challenge page instead of the page, so the crawler never sees the content, however good it is.",
  },
  js_only_content: {
    name: "the page's text only appears after JavaScript runs",
    why:
      "Most AI crawlers read the HTML the server sends and do not run JavaScript, so they see an empty page.",
  },
};

/** The entry for signals a pillar could not compute (`<pillar>.not_evaluated`). */
const NOT_EVALUATED = {
  title: "A part of the report could not be evaluated",
  what:
    "A defect on our side stopped one pillar from being computed for this page. It is not a problem of the site.",
  why: "Nothing: it is left out of the score, so it neither raises nor lowers it.",
  how:
    "When a pillar's checks fail on some unexpected input, the report keeps the rest and marks the pillar as not evaluated. Scan again later, or report the page to us.",
  sources: [] as SourceKey[],
};

/** The explanation of a signal id, or null for an id we do not know. */
export function learnEntry(id: string): LearnEntry | null {
  const pillar = id.split(".")[0];
  const text = LEARN_TEXTS[id] ?? (id.endsWith(".not_evaluated") ? NOT_EVALUATED : null);
  if (!text) return null;
  return {
    id,
    pillar,
    title: text.title,
    what: text.what,
    why: text.why,
    how: text.how,
    sources: text.sources.map((k) => SOURCES[k]),
  };
}

/** Every explained signal, in the order of the texts (pillar by pillar). */
export function learnEntries(): LearnEntry[] {
  return Object.keys(LEARN_TEXTS).map((id) => learnEntry(id)!);
}
