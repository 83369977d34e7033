/**
 * The registry: every pillar with its weight and its signals, in report order. This list is the
 * one place a signal is enlisted; scoring (score.ts), the gates, /learn and the CLI and MCP texts
 * (learn.ts) and the scoring documentation (scoring_docs.ts) all read it. To add a signal, write
 * its module under signals/<pillar>/<name>.ts (one SignalDef, see signal.ts) and add it to its
 * pillar's list below; its test goes in tests/visibility/signals/<pillar>/<name>_test.ts.
 */
import type { GateDef, SignalDef } from "../signal.ts";
import { robotsTxt } from "./access/robots_txt.ts";
import { blanketDisallow } from "./access/blanket_disallow.ts";
import { searchCrawlers } from "./access/search_crawlers.ts";
import { userFetchers } from "./access/user_fetchers.ts";
import { trainingCrawlers } from "./access/training_crawlers.ts";
import { aiPreferences } from "./access/ai_preferences.ts";
import { indexing } from "./access/indexing.ts";
import { edge, EDGE_GATE } from "./access/edge.ts";
import { sitePages } from "./access/site_pages.ts";
import { serverText } from "./content/server_text.ts";
import { headings } from "./content/headings.ts";
import { lang } from "./content/lang.ts";
import { semanticHtml } from "./content/semantic_html.ts";
import { answerShaped } from "./content/answer_shaped.ts";
import { imageAlt } from "./content/image_alt.ts";
import { siteServerText } from "./content/site_server_text.ts";
import { jsonLd } from "./structured/jsonld.ts";
import { organization } from "./structured/organization.ts";
import { website } from "./structured/website.ts";
import { pageType } from "./structured/page_type.ts";
import { sameAs } from "./structured/same_as.ts";
import { breadcrumb } from "./structured/breadcrumb.ts";
import { siteCoverage } from "./structured/site_coverage.ts";
import { llmsTxt } from "./discovery/llms_txt.ts";
import { llmsFull } from "./discovery/llms_full.ts";
import { sitemap } from "./discovery/sitemap.ts";
import { sitemapInRobots } from "./discovery/sitemap_in_robots.ts";
import { siteSample } from "./discovery/site_sample.ts";
import { siteSitemapUrls } from "./discovery/site_sitemap_urls.ts";
import { siteLlmsLinks } from "./discovery/site_llms_links.ts";
import { markdownNegotiation } from "./discovery/markdown_negotiation.ts";
import { aboutContact } from "./trust/about_contact.ts";
import { authorDates } from "./trust/author_dates.ts";
import { brand } from "./trust/brand.ts";
import { wikidata } from "./trust/wikidata.ts";
import { wikipedia } from "./trust/wikipedia.ts";
import { commonCrawl } from "./trust/common_crawl.ts";
import { siteAuthorDates } from "./trust/site_author_dates.ts";
import { status } from "./technical/status.ts";
import { https } from "./technical/https.ts";
import { title } from "./technical/title.ts";
import { description } from "./technical/description.ts";
import { canonical } from "./technical/canonical.ts";
import { openGraph } from "./technical/open_graph.ts";
import { responseTime } from "./technical/response_time.ts";
import { pageSize } from "./technical/page_size.ts";
import { viewport } from "./technical/viewport.ts";
import { siteTitles } from "./technical/site_titles.ts";
import { siteCanonicals } from "./technical/site_canonicals.ts";

/** A weighted pillar: its weight (the weights of all pillars sum to 100) and its signals. */
export interface PillarDef {
  id: string;
  title: string;
  weight: number;
  /** In report order: the home page's signals, then the site audit's. */
  signals: SignalDef[];
}

/** Every pillar, in report order. */
export const PILLARS: readonly PillarDef[] = [
  {
    id: "access",
    title: "AI crawler access",
    weight: 29,
    signals: [
      robotsTxt,
      blanketDisallow,
      searchCrawlers,
      userFetchers,
      trainingCrawlers,
      aiPreferences,
      indexing,
      edge,
      sitePages,
    ],
  },
  {
    id: "content",
    title: "Content extractability",
    weight: 20,
    signals: [serverText, headings, lang, semanticHtml, answerShaped, imageAlt, siteServerText],
  },
  {
    id: "structured",
    title: "Structured data",
    weight: 15,
    signals: [jsonLd, organization, website, pageType, sameAs, breadcrumb, siteCoverage],
  },
  {
    id: "discovery",
    title: "AI discovery files",
    weight: 6,
    signals: [
      llmsTxt,
      llmsFull,
      markdownNegotiation,
      sitemap,
      sitemapInRobots,
      siteSample,
      siteSitemapUrls,
      siteLlmsLinks,
    ],
  },
  {
    id: "trust",
    title: "Entity and trust",
    weight: 15,
    signals: [aboutContact, authorDates, brand, wikidata, wikipedia, commonCrawl, siteAuthorDates],
  },
  {
    id: "technical",
    title: "Technical basics",
    weight: 15,
    signals: [
      status,
      https,
      title,
      description,
      canonical,
      openGraph,
      responseTime,
      pageSize,
      viewport,
      siteTitles,
      siteCanonicals,
    ],
  },
];

/**
 * Gates no signal raises any more that older records still carry, so they read in plain words:
 * `edge_blocks_ai` (the edge refused every major AI search crawler), replaced by the search
 * crawlers' gate, which holds for every path that turns them away (issue 40).
 */
export const RETIRED_GATES: readonly GateDef[] = [EDGE_GATE];
