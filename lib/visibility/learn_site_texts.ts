/**
 * "Learn more" texts of the site audit's signals (lib/visibility/audit/): the checks made on a
 * sample of the site's pages, not only its home page. Merged into LEARN_TEXTS by learn.ts.
 */
import type { LearnText } from "./learn_texts.ts";

const SAMPLE =
  "We read a sample of the site's pages (from the sitemap and the home page's links, spread across its templates, politely: robots.txt obeyed, two requests at a time, Crawl-delay honoured)";

/** The site audit's signals, by id. */
export const SITE_LEARN_TEXTS: Record<string, LearnText> = {
  "access.site_pages": {
    title: "AI search crawlers may read the sampled pages",
    what:
      "robots.txt rules can allow the home page but block whole sections, such as /blog/ or /products/, for some crawlers; pages can also carry their own noindex or per-crawler directives.",
    why:
      "AI search engines cite articles, product pages and documentation far more often than home pages. A section closed to a search crawler cannot appear in that engine's answers.",
    how:
      `${SAMPLE}, then evaluate robots.txt for each AI search crawler on every sampled path, with the pages' robots meta tags and X-Robots-Tag headers. When most sampled pages are closed to AI search, the score is capped.`,
    sources: ["openai", "perplexity", "anthropic", "rfc9309", "robotsMeta"],
  },
  "content.site_server_text": {
    title: "Sampled pages carry their text in the server HTML",
    what:
      "Some templates send an empty shell and build the page's text in the browser with JavaScript.",
    why:
      "Most AI crawlers read the HTML the server sends and do not run JavaScript, so they see those pages as empty.",
    how:
      `${SAMPLE}, and count the words each page's server HTML holds, outside scripts and templates. When half of the pages read are empty shells, the score is capped.`,
    sources: ["javascript", "helpful"],
  },
  "structured.site_coverage": {
    title: "Sampled pages carry valid structured data",
    what:
      "Structured data (JSON-LD, microdata or RDFa) tells machines what each page is: an article, a product, a FAQ, an organisation.",
    why:
      "AI systems and search engines use it to understand and attribute pages; markup with errors is ignored or misread.",
    how:
      `${SAMPLE}, extract each page's structured data and validate it with the same validator as the Schema Markup Generator.`,
    sources: ["structuredData"],
  },
  "trust.site_author_dates": {
    title: "Article pages name an author and a date",
    what:
      "An article page says who wrote it and when (a byline, a <time> element, or author and datePublished in its structured data).",
    why:
      "Assistants prefer sources they can attribute and date; an anonymous, undated article is weaker evidence.",
    how:
      `${SAMPLE}, recognise article-like pages (by their structured data or their path), and check each for an author and a publication date.`,
    sources: ["helpful", "structuredData"],
  },
  "technical.site_titles": {
    title: "Sampled pages have their own title and description",
    what:
      "Each page's <title> and meta description say what that page is about, differently from the site's other pages.",
    why:
      "Titles and descriptions are what search engines and assistants show and match first; duplicates make pages look alike.",
    how:
      `${SAMPLE}, and report pages with no title or description and titles or descriptions shared by several pages.`,
    sources: ["titleLink", "snippet"],
  },
  "technical.site_canonicals": {
    title: "Canonicals point where they should",
    what:
      'A canonical link (<link rel="canonical">) names the preferred address of a page. A template that points every page to the home page tells crawlers all those pages are duplicates of it.',
    why:
      "Crawlers fold pages into the address their canonical names, so a wrong canonical hides the page it is on.",
    how:
      `${SAMPLE}, and check that each page's canonical names the page itself (or a real equivalent) and not another page of the site, such as the home page.`,
    sources: ["canonical"],
  },
  "discovery.site_sitemap_urls": {
    title: "Sitemap URLs answer 200, are indexable and not blocked",
    what:
      "A sitemap lists the pages a site wants found. Every URL in it should be a live page that crawlers may read and index.",
    why:
      "Sitemap URLs that redirect, fail, say noindex or are blocked by robots.txt waste crawlers' time and make the sitemap less trusted.",
    how:
      `${SAMPLE}; for the sampled URLs that came from the sitemap we check the status, the noindex directives and robots.txt.`,
    sources: ["sitemaps", "buildSitemap"],
  },
  "discovery.site_sample": {
    title: "The pages the audit read",
    what:
      "The list of pages this report sampled beyond the home page, with each page's type, status and the checks it fails.",
    why:
      "Problems that hide a site are often on its article, product or documentation templates, not on the home page.",
    how:
      `${SAMPLE}, within one time budget; the report says how many pages it read and why it read fewer when it did.`,
    sources: ["sitemaps", "rfc9309"],
  },
  "discovery.site_llms_links": {
    title: "llms.txt links resolve",
    what: "llms.txt points AI systems to a site's most useful pages and documents.",
    why: "A link in llms.txt that fails sends an assistant to nothing.",
    how:
      "We request the links llms.txt lists (politely, with the audit's limits) and report those that do not answer 200.",
    sources: ["llmstxt"],
  },
};
