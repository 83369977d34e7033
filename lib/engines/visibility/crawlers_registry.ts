/**
 * The crawler registry as data: one entry per crawler, each with the vendor's own page it was
 * checked against and the day it was last checked (crawlers.ts derives the roles and lookups;
 * tests/visibility/crawlers_registry_test.ts fails when an entry lacks a source or a date).
 *
 * `checked` is the day the entry was last compared with its `url` page: 2026-11-26 where a
 * stored copy of the vendor's page was read through the project's search tool for this change
 * (Google's user-triggered fetchers and Google-Agent pages, its documentation changelog, Mistral's
 * crawler page, Amazon's Amazonbot page), the day the shared source was last read where the entry
 * rests on one of `SOURCES` (sources.ts), else the day the entry was written and checked by its
 * author (the commit that added it: 2026-11-21 or 2026-11-24).
 *
 * `ipRanges` is a list of addresses the vendor's page names for that crawler; absent where the
 * page names none for it. Googlebot's, Bingbot's, Applebot's and Anthropic's crawlers' lists were
 * added on 2026-12-06 for the server-log reader (lib/features/logs/, issue 43); Google's "Verify
 * requests from Google crawlers and fetchers" page, read that day, names common-crawlers.json.
 * Checked 2026-12-06 through the search tool: Anthropic's crawler page
 * (privacy.claude.com, article 8896518, as stored) now says a crawler whose address is on its list
 * comes from Anthropic, and the list it links is https://claude.com/crawling/bots.json (one list
 * for its bots; address lists built from it name ClaudeBot); Google's crawler pages publish their
 * lists under developers.google.com/static/crawling/ipranges/ (special-crawlers.json and the
 * user-triggered-*.json files are named on its stored pages; common-crawlers.json, Googlebot's, is
 * the one verifiers load from there); Bing's https://www.bing.com/toolbox/bingbot.json and Apple's
 * https://search.developer.apple.com/applebot.json are the lists verifiers cite from those vendors
 * (their own pages were not readable in full through the search tool: said so here).
 *
 * `verified: false` marks a token whose vendor's own page we could not read (2026-12-06): it is
 * shown, labelled unverifiable, and never scored or probed. Checked then and NOT verified, so
 * unverifiable: Moonshot's KimiBot, Kimi-SearchBot and Kimi-User (no Moonshot page about them came
 * back, only third-party lists), Google-CloudVertexBot (Google's special-case crawlers page, as
 * stored, was readable only up to its first entries), Meta's meta-externalads (only third-party
 * copies of Meta's crawler page came back), Parallel's Shap-User (Parallel's crawler page, as
 * stored, names ShapBot only). Not added: Ai2's AI2Bot (allenai.org/crawler did not come back, and
 * the token holds a digit, which RFC 9309 product tokens cannot: a robots.txt group for it reads as
 * "AI"), Exa's crawler (no vendor page and no token could be confirmed). Verified on its
 * vendor's page and added: Parallel's ShapBot (docs.parallel.ai/resources/crawler, 2026-12-06).
 *
 * OpenAI's OAI-AdsBot (ad landing-page checks) rests on OpenAI's own help article for advertisers
 * (read 2026-11-26 through the search tool: what it is for, "You must allow OAI-AdsBot", "OpenAI
 * crawlers respect these rules" of robots.txt); its User-Agent string is the one OpenAI's crawler
 * page lists (developers.openai.com/api/docs/bots, as copies of that page dated 2026-04 to 2026-06
 * quote it). Amazon's AMZN-User was verified on Amazon's crawler page
 * (developer.amazon.com/support/amazonbot, read 2026-11-26).
 */
import { SOURCES } from "./sources.ts";
import type { DatedSource } from "../../kit/dated_source.ts";
import type { ProductId } from "./products.ts";

/** What the vendor says the crawler is for. */
export type CrawlerPurpose = "search" | "user" | "agent" | "training" | "ads";

/**
 * One registry entry: what its vendor documents about it, and when that was last checked: its
 * dated source (`url`, the vendor's page documenting the crawler, and `checked`).
 */
export interface CrawlerEntry extends DatedSource {
  /** Product token, matched case-insensitively and exactly against robots.txt User-agent lines. */
  token: string;
  /** Who runs it. */
  vendor: string;
  /** What it does, in the vendor's terms. */
  operator: string;
  purpose: CrawlerPurpose;
  /**
   * Whether its vendor says it follows robots.txt: `yes`; `may_ignore` for user-initiated
   * fetchers whose vendor says robots.txt may not apply to them; `not_stated` when the vendor
   * says nothing.
   */
  robotsTxt: "yes" | "may_ignore" | "not_stated";
  /** A User-Agent string the crawler really sends (used to probe the edge); "" for a token only. */
  userAgent: string;
  /** The list of addresses the vendor's page names for it; absent when it names none. */
  ipRanges?: string;
  /**
   * A crawler of a major engine or assistant (most of the AI answers people get): blocking all the
   * major ones of a role hides the site from that role; minor ones weigh half as much in points.
   */
  major?: boolean;
  /** The AI product it feeds (products.ts), which the report groups crawlers by. */
  product: ProductId;
  /**
   * False for a token whose vendor documents it on no page we could read: shown as unverifiable,
   * never scored and never probed (`unverified` says why).
   */
  verified?: false;
  /** Why the entry could not be verified on its vendor's own page. */
  unverified?: string;
  /** Its vendor says it no longer uses the token: shown, never counted for its product. */
  retired?: true;
}

const TODAY = "2026-11-26";
/** The day the entries added or changed for issue 40 were checked. */
const RECHECKED = "2026-12-06";
/** Anthropic's one published address list for its crawlers (see the note above). */
const ANTHROPIC_IPS = "https://claude.com/crawling/bots.json";

const openai = { vendor: "OpenAI", url: SOURCES.openai.url, checked: SOURCES.openai.checked };
const anthropic = {
  vendor: "Anthropic",
  url: SOURCES.anthropic.url,
  checked: SOURCES.anthropic.checked,
};
const perplexity = {
  vendor: "Perplexity",
  url: SOURCES.perplexity.url,
  checked: SOURCES.perplexity.checked,
};
const googleCommon = {
  vendor: "Google",
  url: SOURCES.googleCrawlers.url,
  checked: SOURCES.googleCrawlers.checked,
};
const googleUser = {
  vendor: "Google",
  url:
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers",
  checked: TODAY,
  // Google: "Because the fetch was requested by a user, these fetchers generally ignore
  // robots.txt rules."
  robotsTxt: "may_ignore",
} as const;
const mistral = { vendor: "Mistral AI", url: "https://docs.mistral.ai/robots", checked: TODAY };
const meta = {
  vendor: "Meta",
  url: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
  checked: "2026-11-24",
};
const amazon = {
  vendor: "Amazon",
  url: "https://developer.amazon.com/amazonbot",
  checked: "2026-11-24",
};

/** Every crawler considered, in the order reports list them. */
export const REGISTRY: readonly CrawlerEntry[] = [
  {
    ...openai,
    token: "OAI-SearchBot",
    product: "chatgpt",
    major: true,
    purpose: "search",
    operator: "OpenAI (ChatGPT search)",
    robotsTxt: "yes",
    ipRanges: "https://openai.com/searchbot.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
  },
  {
    ...anthropic,
    checked: RECHECKED,
    token: "Claude-SearchBot",
    product: "claude",
    major: true,
    purpose: "search",
    operator: "Anthropic (Claude search)",
    robotsTxt: "yes",
    ipRanges: ANTHROPIC_IPS,
    userAgent: "Mozilla/5.0 (compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)",
  },
  {
    ...perplexity,
    token: "PerplexityBot",
    product: "perplexity",
    major: true,
    purpose: "search",
    operator: "Perplexity",
    robotsTxt: "yes",
    ipRanges: "https://www.perplexity.com/perplexitybot.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  },
  {
    ...googleCommon,
    token: "Googlebot",
    product: "google",
    major: true,
    purpose: "search",
    operator: "Google (Search, AI Overviews and AI Mode)",
    robotsTxt: "yes",
    ipRanges: "https://developers.google.com/static/crawling/ipranges/common-crawlers.json",
    userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  },
  {
    vendor: "Microsoft",
    url: "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
    checked: "2026-11-21",
    token: "Bingbot",
    product: "copilot",
    major: true,
    purpose: "search",
    operator: "Microsoft (Bing, Copilot)",
    robotsTxt: "yes",
    ipRanges: "https://www.bing.com/toolbox/bingbot.json",
    userAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  },
  {
    vendor: "Apple",
    url: "https://support.apple.com/en-us/119829",
    checked: "2026-11-21",
    token: "Applebot",
    product: "apple",
    major: true,
    purpose: "search",
    operator:
      "Apple (Siri, Spotlight, Safari suggestions; follows the Googlebot group when it has none)",
    robotsTxt: "yes",
    ipRanges: "https://search.developer.apple.com/applebot.json",
    userAgent:
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  },
  {
    ...meta,
    token: "meta-webindexer",
    product: "meta",
    purpose: "search",
    operator: "Meta (Meta AI search: pages it cites and links in answers)",
    robotsTxt: "yes",
    userAgent:
      "meta-webindexer/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/web-crawlers)",
  },
  {
    vendor: "DuckDuckGo",
    url: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
    checked: "2026-11-24",
    token: "DuckAssistBot",
    product: "duckduckgo",
    purpose: "search",
    operator: "DuckDuckGo (DuckAssist AI answers)",
    robotsTxt: "yes",
    userAgent: "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
  },
  {
    ...mistral,
    token: "MistralAI-Index",
    product: "mistral",
    purpose: "search",
    operator:
      "Mistral AI (indexes pages for its search engine, which answers questions in Vibe; not used for training)",
    robotsTxt: "yes",
    ipRanges: "https://mistral.ai/mistralai-index-ips.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-Index/1.0; +https://docs.mistral.ai/robots)",
  },
  {
    vendor: "Amazon",
    // Amazon's crawler page lists AMZN-User beside Amazonbot: "supports user actions, such as
    // responding to Alexa queries that require up-to-date information ... does not crawl content for
    // generative AI model training"; "Amazon respects the Robots Exclusion Protocol".
    url: "https://developer.amazon.com/support/amazonbot",
    checked: TODAY,
    token: "AMZN-User",
    product: "amazon",
    purpose: "user",
    operator: "Amazon (fetches pages live to answer Alexa users; not used for training)",
    robotsTxt: "yes",
    ipRanges: "https://developer.amazon.com/amazonbot/live-ip-addresses/",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; AMZN-User/0.1) Chrome/119.0.6045.214 Safari/537.36",
  },
  {
    ...amazon,
    token: "Amzn-SearchBot",
    product: "amazon",
    purpose: "search",
    operator: "Amazon (search and AI answers in Alexa and Rufus)",
    robotsTxt: "yes",
    userAgent: "",
  },
  {
    vendor: "You.com",
    // You.com publishes no crawler page we could find; the token comes from the ai.robots.txt list.
    url: "https://github.com/ai-robots-txt/ai.robots.txt",
    checked: "2026-11-24",
    token: "YouBot",
    product: "you",
    purpose: "search",
    operator: "You.com (AI search)",
    robotsTxt: "not_stated",
    verified: false,
    unverified:
      "You.com publishes no crawler page we could find; the token comes from a community list",
    userAgent: "",
  },
  {
    ...openai,
    token: "ChatGPT-User",
    product: "chatgpt",
    major: true,
    purpose: "user",
    operator: "OpenAI (ChatGPT fetching a page a user asked about)",
    robotsTxt: "may_ignore",
    ipRanges: "https://openai.com/chatgpt-user.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  },
  {
    ...anthropic,
    checked: RECHECKED,
    token: "Claude-User",
    product: "claude",
    major: true,
    purpose: "user",
    operator: "Anthropic (Claude fetching for a user)",
    robotsTxt: "yes",
    ipRanges: ANTHROPIC_IPS,
    userAgent: "Mozilla/5.0 (compatible; Claude-User/1.0; +https://www.anthropic.com)",
  },
  {
    ...perplexity,
    token: "Perplexity-User",
    product: "perplexity",
    major: true,
    purpose: "user",
    operator: "Perplexity (fetching a page for a user's question)",
    robotsTxt: "may_ignore",
    ipRanges: "https://www.perplexity.com/perplexity-user.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  },
  {
    ...mistral,
    token: "MistralAI-User",
    product: "mistral",
    purpose: "user",
    operator: "Mistral AI (Vibe fetching a page for a user's question)",
    robotsTxt: "yes",
    ipRanges: "https://mistral.ai/mistralai-user-ips.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
  },
  {
    ...meta,
    token: "Meta-ExternalFetcher",
    product: "meta",
    purpose: "user",
    operator: "Meta (Meta AI fetching a link a user gave it)",
    robotsTxt: "may_ignore",
    userAgent:
      "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  },
  {
    ...googleUser,
    token: "Google-Agent",
    product: "google",
    purpose: "agent",
    operator:
      "Google (agents on Google's infrastructure that browse and act on a user's request, such as Project Mariner)",
    ipRanges: "https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) Chrome/138.0.0.0 Safari/537.36",
  },
  {
    ...googleUser,
    token: "Google-GeminiNotebook",
    product: "google",
    purpose: "user",
    operator: "Google (Gemini Notebook, formerly NotebookLM, fetching the sources a user adds)",
    // Google names three address files for its user-triggered fetchers without saying which
    // holds this one's addresses.
    userAgent:
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 (compatible; Google-GeminiNotebook; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-gemininotebook)",
  },
  {
    ...googleUser,
    token: "Google-NotebookLM",
    product: "google",
    purpose: "user",
    operator:
      "Google (NotebookLM's fetcher, listed by Google on 2025-10-09; many robots.txt files still name it)",
    userAgent: "",
  },
  {
    ...openai,
    token: "GPTBot",
    product: "chatgpt",
    purpose: "training",
    operator: "OpenAI (model training)",
    robotsTxt: "yes",
    ipRanges: "https://openai.com/gptbot.json",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  },
  {
    ...anthropic,
    checked: RECHECKED,
    token: "ClaudeBot",
    product: "claude",
    purpose: "training",
    operator: "Anthropic (model training)",
    robotsTxt: "yes",
    ipRanges: ANTHROPIC_IPS,
    userAgent: "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  },
  {
    ...anthropic,
    checked: "2026-11-24",
    token: "anthropic-ai",
    product: "claude",
    purpose: "training",
    operator: "Anthropic (older training token; ClaudeBot replaced it)",
    robotsTxt: "yes",
    retired: true,
    userAgent: "",
  },
  {
    ...anthropic,
    checked: "2026-11-24",
    token: "Claude-Web",
    product: "claude",
    purpose: "training",
    operator:
      "Anthropic (retired token: Anthropic's crawlers no longer use it; many files still name it)",
    robotsTxt: "yes",
    retired: true,
    userAgent: "",
  },
  {
    ...mistral,
    token: "MistralAI-Training",
    product: "mistral",
    purpose: "training",
    operator: "Mistral AI (builds datasets to train its generative models)",
    robotsTxt: "yes",
    userAgent: "",
  },
  {
    ...amazon,
    checked: TODAY,
    token: "Amazonbot",
    product: "amazon",
    purpose: "training",
    operator: "Amazon (improves its services and may train Amazon's AI models)",
    robotsTxt: "yes",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
  },
  {
    ...googleCommon,
    token: "Google-Extended",
    product: "google",
    purpose: "training",
    operator:
      "Google (Gemini model training and grounding of answers in Gemini Apps and Vertex AI; not Search or AI Overviews; a robots.txt token only)",
    robotsTxt: "yes",
    userAgent: "",
  },
  {
    vendor: "Apple",
    url: "https://support.apple.com/en-us/119829",
    checked: "2026-11-21",
    token: "Applebot-Extended",
    product: "apple",
    purpose: "training",
    operator: "Apple (model training; a robots.txt token only)",
    robotsTxt: "yes",
    userAgent: "",
  },
  {
    vendor: "Common Crawl",
    url: SOURCES.commonCrawl.url,
    checked: SOURCES.commonCrawl.checked,
    token: "CCBot",
    product: "commoncrawl",
    purpose: "training",
    operator: "Common Crawl (open dataset used by many models)",
    robotsTxt: "yes",
    userAgent: "CCBot/2.0 (https://commoncrawl.org/faq/)",
  },
  {
    vendor: "ByteDance",
    // ByteDance publishes no crawler page; the token and its use come from the ai.robots.txt list.
    url: "https://github.com/ai-robots-txt/ai.robots.txt",
    checked: "2026-11-21",
    token: "Bytespider",
    product: "bytedance",
    purpose: "training",
    operator: "ByteDance (model training)",
    robotsTxt: "not_stated",
    verified: false,
    unverified:
      "ByteDance publishes no crawler page we could find; the token comes from a community list",
    userAgent:
      "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  },
  {
    ...meta,
    token: "meta-externalagent",
    product: "meta",
    purpose: "training",
    operator: "Meta (model training)",
    robotsTxt: "yes",
    userAgent:
      "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  },
  {
    vendor: "OpenAI",
    url:
      "https://help.openai.com/en/articles/20001243-advertiser-guidance-for-allowing-openai-web-crawlers",
    checked: TODAY,
    token: "OAI-AdsBot",
    product: "chatgpt",
    purpose: "ads",
    operator:
      "OpenAI (checks the landing pages of ads submitted to ChatGPT; visits only those pages)",
    robotsTxt: "yes",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-AdsBot/1.0; +https://openai.com/adsbot",
  },
  {
    vendor: "Parallel",
    // Parallel's crawler page: "ShapBot helps discover and index websites for Parallel's web APIs";
    // it suggests allowing ShapBot in robots.txt and from its addresses (shapbot.json).
    url: "https://docs.parallel.ai/resources/crawler",
    checked: RECHECKED,
    token: "ShapBot",
    product: "parallel",
    purpose: "search",
    operator: "Parallel (indexes pages for the web search APIs AI agents call)",
    robotsTxt: "yes",
    ipRanges: "https://docs.parallel.ai/resources/shapbot.json",
    userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ShapBot/0.1.0",
  },
  {
    vendor: "Parallel",
    url: "https://docs.parallel.ai/resources/crawler",
    checked: RECHECKED,
    token: "Shap-User",
    product: "parallel",
    purpose: "user",
    operator: "Parallel (said to fetch pages on request; not on Parallel's crawler page as stored)",
    robotsTxt: "not_stated",
    verified: false,
    unverified: "Parallel's crawler page, as we could read it, names ShapBot only",
    userAgent: "",
  },
  ...(["KimiBot", "Kimi-SearchBot", "Kimi-User"] as const).map((token) => ({
    vendor: "Moonshot AI",
    // Only community lists name these tokens; no page of Moonshot's about them came back.
    url: "https://github.com/ai-robots-txt/ai.robots.txt",
    checked: RECHECKED,
    token,
    product: "kimi" as const,
    purpose: token === "KimiBot"
      ? "training" as const
      : token === "Kimi-User"
      ? "user" as const
      : "search" as const,
    operator: `Moonshot AI (Kimi; ${
      token === "KimiBot" ? "training" : token === "Kimi-User" ? "fetching for a user" : "search"
    }, as community lists describe it)`,
    robotsTxt: "not_stated" as const,
    verified: false as const,
    unverified: "no page of Moonshot AI's documenting it could be read",
    userAgent: "",
  })),
  {
    vendor: "Google",
    url:
      "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers",
    checked: RECHECKED,
    token: "Google-CloudVertexBot",
    product: "google",
    purpose: "agent",
    operator: "Google (crawls that site owners request for their Vertex AI Agents)",
    robotsTxt: "not_stated",
    verified: false,
    unverified:
      "Google's special-case crawlers page could be read only up to its first entries, not this one",
    userAgent: "",
  },
  {
    ...meta,
    checked: RECHECKED,
    token: "meta-externalads",
    product: "meta",
    purpose: "ads",
    operator: "Meta (advertising and business products, as copies of Meta's page describe it)",
    robotsTxt: "not_stated",
    verified: false,
    unverified: "only third-party copies of Meta's crawler page could be read",
    userAgent: "",
  },
];
