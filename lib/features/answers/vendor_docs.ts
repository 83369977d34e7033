/**
 * The vendors' documentation the four adapters follow, each with the day it was read (a stored
 * copy of the page, through the project's search tool, on 2026-11-26: the pages themselves were
 * not reachable from where this was written). The adapters have been checked against responses
 * built from these pages' documented shapes only, never against the live APIs.
 */
import type { VendorDoc } from "./provider.ts";

const CHECKED = "2026-11-26";

/** Every page the adapters cite, by vendor. */
export const VENDOR_DOCS = {
  openaiWebSearch: {
    title: "OpenAI: Web search (Responses API, web_search tool, url_citation annotations)",
    url: "https://developers.openai.com/api/docs/guides/tools-web-search",
    checked: CHECKED,
  },
  openaiErrors: {
    title: "OpenAI: Error codes (429 rate limits versus insufficient_quota, 5xx)",
    url: "https://developers.openai.com/api/docs/guides/error-codes",
    checked: CHECKED,
  },
  openaiPricing: {
    title: "OpenAI: API pricing (models, built-in tools: web search per 1k calls)",
    url: "https://developers.openai.com/api/docs/pricing",
    checked: CHECKED,
  },
  perplexityApi: {
    title: "Perplexity: Chat Completions API reference (citations, search_results, usage)",
    url: "https://perplexity.mintlify.app/api-reference",
    checked: CHECKED,
  },
  perplexityOpenAi: {
    title: "Perplexity: OpenAI compatibility (POST https://api.perplexity.ai/chat/completions)",
    url: "https://docs.perplexity.ai/docs/sonar/openai-compatibility",
    checked: CHECKED,
  },
  perplexityContext: {
    title: "Perplexity: Search context size guide (web_search_options.search_context_size)",
    url: "https://docs.perplexity.ai/guides/search-context-size-guide",
    checked: CHECKED,
  },
  perplexityPricing: {
    title: "Perplexity: Pricing (Sonar tokens, request fee by search context size)",
    url: "https://docs.perplexity.ai/docs/getting-started/pricing",
    checked: CHECKED,
  },
  anthropicWebSearch: {
    title: "Anthropic: Web search tool (web_search_20250305, web_search_tool_result, citations)",
    url: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool",
    checked: CHECKED,
  },
  anthropicErrors: {
    title: "Anthropic: Errors (429 rate_limit_error with retry-after, 529 overloaded_error)",
    url: "https://platform.claude.com/docs/en/api/errors",
    checked: CHECKED,
  },
  anthropicPricing: {
    title: "Anthropic: Pricing (model tokens; web search $10 per 1,000 searches)",
    url: "https://platform.claude.com/docs/en/about-claude/pricing",
    checked: CHECKED,
  },
  geminiGrounding: {
    title: "Google: Grounding with Google Search (google_search tool, groundingMetadata)",
    url: "https://ai.google.dev/gemini-api/docs/google-search",
    checked: CHECKED,
  },
  googleExtendedGrounding: {
    title:
      "Google Cloud: Grounding with Google Search (pages that disallow Google-Extended are not used)",
    url:
      "https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/grounding/grounding-with-google-search",
    checked: CHECKED,
  },
  geminiErrors: {
    title: "Google: Gemini API troubleshooting (429 RESOURCE_EXHAUSTED, 500, 503, 504)",
    url: "https://ai.google.dev/gemini-api/docs/troubleshooting",
    checked: CHECKED,
  },
  geminiPricing: {
    title: "Google: Gemini API pricing (tokens; Gemini 3 grounding per search query)",
    url: "https://ai.google.dev/gemini-api/docs/pricing",
    checked: CHECKED,
  },
} satisfies Record<string, VendorDoc>;
