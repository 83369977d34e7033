/**
 * The AI and search crawlers we check robots.txt and the edge against, classed by role:
 * - `training`: collects data to train models. Blocking is a legitimate choice: reported, not scored.
 * - `search`: indexes pages that AI search / answer engines cite. Blocking hides the site.
 * - `user`: fetches a page because a person asked an assistant about it. Several vendors say such
 *   user-initiated fetches may not follow robots.txt (see {@link Crawler.robotsTxt}): a robots.txt
 *   block of them is a request, and only the edge probe shows what really gets through.
 *
 * Sources: each vendor's crawler documentation (OpenAI, Anthropic, Perplexity, Google, Microsoft,
 * Apple, Meta, DuckDuckGo, Amazon, Mistral, You.com, Common Crawl, ByteDance), cross-checked with
 * the ai.robots.txt project's list and the tokens real news sites' robots.txt files name.
 */

import type { CrawlerRendering } from "../render/view.ts";

/** The role a crawler plays. */
export type CrawlerRole = "training" | "search" | "user";

/** One crawler and the product token robots.txt groups name it by. */
export interface Crawler {
  /** Product token, matched case-insensitively and exactly against robots.txt User-agent lines. */
  token: string;
  operator: string;
  role: CrawlerRole;
  /** A User-Agent string the crawler really sends (used to probe edge blocking); "" for a token only. */
  userAgent: string;
  /**
   * Whether its vendor says it follows robots.txt: `yes`, or `may_ignore` for user-initiated
   * fetchers whose vendor says robots.txt may not apply to them. Absent means `yes`.
   */
  robotsTxt?: "yes" | "may_ignore";
  /**
   * A crawler of a major engine or assistant (most of the AI answers people get): blocking all the
   * major ones of a role hides the site from that role; minor ones weigh half as much in points.
   */
  major?: boolean;
}

/** Every crawler considered, in the order reports list them. */
export const CRAWLERS: readonly Crawler[] = [
  {
    token: "OAI-SearchBot",
    major: true,
    operator: "OpenAI (ChatGPT search)",
    role: "search",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
  },
  {
    token: "Claude-SearchBot",
    major: true,
    operator: "Anthropic (Claude search)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)",
  },
  {
    token: "PerplexityBot",
    major: true,
    operator: "Perplexity",
    role: "search",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  },
  {
    token: "Googlebot",
    major: true,
    operator: "Google (Search, AI Overviews and AI Mode)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  },
  {
    token: "Bingbot",
    major: true,
    operator: "Microsoft (Bing, Copilot)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  },
  {
    token: "Applebot",
    major: true,
    operator:
      "Apple (Siri, Spotlight, Safari suggestions; follows the Googlebot group when it has none)",
    role: "search",
    userAgent:
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  },
  {
    token: "meta-webindexer",
    operator: "Meta (Meta AI search: pages it cites and links in answers)",
    role: "search",
    userAgent:
      "meta-webindexer/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/web-crawlers)",
  },
  {
    token: "DuckAssistBot",
    operator: "DuckDuckGo (DuckAssist AI answers)",
    role: "search",
    userAgent: "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
  },
  {
    token: "Amzn-SearchBot",
    operator: "Amazon (search and AI answers in Alexa and Rufus)",
    role: "search",
    userAgent: "",
  },
  {
    token: "YouBot",
    operator: "You.com (AI search)",
    role: "search",
    userAgent: "",
  },
  {
    token: "ChatGPT-User",
    major: true,
    operator: "OpenAI (ChatGPT fetching a page a user asked about)",
    role: "user",
    robotsTxt: "may_ignore",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  },
  {
    token: "Claude-User",
    major: true,
    operator: "Anthropic (Claude fetching for a user)",
    role: "user",
    userAgent: "Mozilla/5.0 (compatible; Claude-User/1.0; +https://www.anthropic.com)",
  },
  {
    token: "Perplexity-User",
    major: true,
    operator: "Perplexity (fetching a page for a user's question)",
    role: "user",
    robotsTxt: "may_ignore",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  },
  {
    token: "MistralAI-User",
    operator: "Mistral (Le Chat fetching a page for a user)",
    role: "user",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
  },
  {
    token: "Meta-ExternalFetcher",
    operator: "Meta (Meta AI fetching a link a user gave it)",
    role: "user",
    robotsTxt: "may_ignore",
    userAgent:
      "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  },
  {
    token: "GPTBot",
    operator: "OpenAI (model training)",
    role: "training",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  },
  {
    token: "ClaudeBot",
    operator: "Anthropic (model training)",
    role: "training",
    userAgent: "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  },
  {
    token: "anthropic-ai",
    operator: "Anthropic (older training token; ClaudeBot replaced it)",
    role: "training",
    userAgent: "",
  },
  {
    token: "Claude-Web",
    operator:
      "Anthropic (retired token: Anthropic's crawlers no longer use it; many files still name it)",
    role: "training",
    userAgent: "",
  },
  {
    token: "Amazonbot",
    operator: "Amazon (improves its services and may train Amazon's AI models)",
    role: "training",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
  },
  {
    token: "Google-Extended",
    operator:
      "Google (Gemini model training and grounding of answers in Gemini Apps and Vertex AI; not Search or AI Overviews; a robots.txt token only)",
    role: "training",
    userAgent: "",
  },
  {
    token: "Applebot-Extended",
    operator: "Apple (model training; a robots.txt token only)",
    role: "training",
    userAgent: "",
  },
  {
    token: "CCBot",
    operator: "Common Crawl (open dataset used by many models)",
    role: "training",
    userAgent: "CCBot/2.0 (https://commoncrawl.org/faq/)",
  },
  {
    token: "Bytespider",
    operator: "ByteDance (model training)",
    role: "training",
    userAgent:
      "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  },
  {
    token: "meta-externalagent",
    operator: "Meta (model training)",
    role: "training",
    userAgent:
      "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  },
];

/** Crawlers of one role. */
export function crawlersByRole(role: CrawlerRole): Crawler[] {
  return CRAWLERS.filter((c) => c.role === role);
}

/** The crawler whose User-Agent probes edge blocking of AI search (a citation crawler). */
export const EDGE_PROBE_SEARCH = CRAWLERS.find((c) => c.token === "OAI-SearchBot")!;
/** A training crawler probed too, so a block of training bots only is told apart. */
export const EDGE_PROBE_TRAINING = CRAWLERS.find((c) => c.token === "GPTBot")!;

/** True when the crawler's vendor says it may not follow robots.txt (user-initiated fetches). */
export function mayIgnoreRobots(token: string): boolean {
  return CRAWLERS.find((c) => c.token === token)?.robotsTxt === "may_ignore";
}

/**
 * Which crawlers run JavaScript before they read a page (the AI's-eye view, lib/render/), each
 * with its source and the day it was checked. "vendor": the vendor's own documentation says so;
 * "measured": its vendor is silent and a published measurement of its traffic found no script
 * execution. Crawlers absent here are documented neither way, and reports say so.
 */
export const CRAWLER_RENDERING: readonly CrawlerRendering[] = [
  {
    token: "Googlebot",
    renders: true,
    basis: "vendor",
    source:
      "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics",
    checked: "2026-11-26",
  },
  {
    token: "Applebot",
    renders: true,
    basis: "vendor",
    source: "https://support.apple.com/en-us/119829",
    checked: "2026-11-26",
  },
  ...["GPTBot", "ClaudeBot", "PerplexityBot"].map((token) => ({
    token,
    renders: false,
    basis: "measured" as const,
    source: "https://vercel.com/blog/the-rise-of-the-ai-crawler",
    checked: "2026-11-26",
  })),
];
