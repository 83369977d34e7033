/**
 * The AI and search crawlers we check robots.txt and the edge against, classed by role:
 * - `training`: collects data to train models. Blocking is a legitimate choice: reported, not scored.
 * - `search`: indexes pages that AI search / answer engines cite. Blocking hides the site.
 * - `user`: fetches a page because a person asked an assistant about it.
 */

/** The role a crawler plays. */
export type CrawlerRole = "training" | "search" | "user";

/** One crawler and the product token robots.txt groups name it by. */
export interface Crawler {
  /** Product token, matched case-insensitively and exactly against robots.txt User-agent lines. */
  token: string;
  operator: string;
  role: CrawlerRole;
  /** A User-Agent string the crawler really sends (used to probe edge blocking). */
  userAgent: string;
}

/** Every crawler considered, in the order reports list them. */
export const CRAWLERS: readonly Crawler[] = [
  {
    token: "OAI-SearchBot",
    operator: "OpenAI (ChatGPT search)",
    role: "search",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
  },
  {
    token: "Claude-SearchBot",
    operator: "Anthropic (Claude search)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)",
  },
  {
    token: "PerplexityBot",
    operator: "Perplexity",
    role: "search",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  },
  {
    token: "Googlebot",
    operator: "Google (Search, AI Overviews)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  },
  {
    token: "Bingbot",
    operator: "Microsoft (Bing, Copilot)",
    role: "search",
    userAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  },
  {
    token: "Applebot",
    operator: "Apple (Siri, Spotlight)",
    role: "search",
    userAgent:
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  },
  {
    token: "ChatGPT-User",
    operator: "OpenAI (ChatGPT browsing for a user)",
    role: "user",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  },
  {
    token: "Claude-User",
    operator: "Anthropic (Claude fetching for a user)",
    role: "user",
    userAgent: "Mozilla/5.0 (compatible; Claude-User/1.0; +https://www.anthropic.com)",
  },
  {
    token: "Perplexity-User",
    operator: "Perplexity (fetching for a user)",
    role: "user",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
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
    token: "Google-Extended",
    operator: "Google (Gemini training; a robots.txt token only)",
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
