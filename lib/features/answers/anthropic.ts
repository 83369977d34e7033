/**
 * Anthropic's Messages API with its web search tool: `POST https://api.anthropic.com/v1/messages`
 * (`anthropic-version: 2023-06-01`) with `tools: [{"type": "web_search_20250305", "name":
 * "web_search", "max_uses": 2}]`. The answer is the `text` blocks; the sources it cites are their
 * `citations` of type `web_search_result_location`; the sources the search returned are the
 * `web_search_result` entries of the `web_search_tool_result` blocks. 429 comes with
 * `retry-after`; 529 `overloaded_error` is retried; a 429 whose `error.details.error_code` is
 * `enforced_spend_limit_reached` is not (no credit until next month).
 */
import {
  type AnswerSource,
  count,
  field,
  hostOf,
  InvalidResponseError,
  keptQueries,
  keptSources,
  list,
  MAX_OUTPUT_TOKENS,
  nestedErrorCode,
  type ProviderAdapter,
  str,
} from "./provider.ts";
import { VENDOR_DOCS } from "./vendor_docs.ts";

/** Searches one call may run (each is billed): the cost ceiling of a call. */
const MAX_USES = 2;

export const anthropic: ProviderAdapter = {
  id: "anthropic",
  label: "Claude (Anthropic)",
  host: "api.anthropic.com",
  api: "Messages API, POST /v1/messages, anthropic-version 2023-06-01, tool web_search_20250305",
  docs: [VENDOR_DOCS.anthropicWebSearch, VENDOR_DOCS.anthropicErrors, VENDOR_DOCS.anthropicPricing],
  defaultModel: "claude-haiku-4-5-20251001",
  surface: "API with web search (the Messages API), not the Claude app",
  returnsQueries: true,
  price: {
    value: { perRequest: 0, perSearch: 0.01, inputPerMTok: 1, outputPerMTok: 5 },
    assumes:
      "Claude Haiku 4.5 ($1 / $5 per million input / output tokens); at most 2 web searches per " +
      "call ($10 per 1,000 searches); search results are billed as input tokens",
    source: VENDOR_DOCS.anthropicPricing,
  },
  assumed: { input: 10000, output: MAX_OUTPUT_TOKENS, searches: MAX_USES },
  crawlers: { search: ["Claude-SearchBot"], user: ["Claude-User"], other: [] },
  request(question, model, key) {
    return {
      url: "https://api.anthropic.com/v1/messages",
      headers: {
        "x-api-key": key,
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model,
        max_tokens: MAX_OUTPUT_TOKENS,
        messages: [{ role: "user", content: question }],
        tools: [{ type: "web_search_20250305", name: "web_search", max_uses: MAX_USES }],
      }),
    };
  },
  parse(body) {
    const content = field(body, "content");
    if (!Array.isArray(content)) throw new InvalidResponseError("no content array");
    const texts: string[] = [];
    const queries: unknown[] = [];
    const sources: Omit<AnswerSource, "rank">[] = [];
    for (const block of content) {
      const type = field(block, "type");
      // The searches it ran: its server_tool_use blocks of the web_search tool.
      if (type === "server_tool_use" && field(block, "name") === "web_search") {
        queries.push(field(field(block, "input"), "query"));
      }
      if (type === "web_search_tool_result") {
        // An error result is an object ({type: "web_search_tool_result_error"}), not a list.
        for (const r of list(field(block, "content"))) {
          const url = str(field(r, "url"));
          if (field(r, "type") === "web_search_result" && url) {
            sources.push({
              url,
              title: str(field(r, "title")),
              host: hostOf(url),
              kind: "retrieved",
            });
          }
        }
      }
      if (type !== "text") continue;
      texts.push(str(field(block, "text")) ?? "");
      for (const c of list(field(block, "citations"))) {
        const url = str(field(c, "url"));
        if (field(c, "type") === "web_search_result_location" && url) {
          sources.push({ url, title: str(field(c, "title")), host: hostOf(url), kind: "cited" });
        }
      }
    }
    const text = texts.join("").trim();
    if (!text) throw new InvalidResponseError("no text block in the response");
    const usage = field(body, "usage");
    return {
      text,
      sources: keptSources(sources),
      queries: keptQueries(queries),
      usage: {
        inputTokens: count(field(usage, "input_tokens")),
        outputTokens: count(field(usage, "output_tokens")),
        searches: count(field(field(usage, "server_tool_use"), "web_search_requests")),
      },
      model: str(field(body, "model")),
    };
  },
  classify(status, body) {
    const spendCap = field(field(field(body, "error"), "details"), "error_code");
    if (status === 429) {
      return spendCap === "enforced_spend_limit_reached" ? "key_refused" : "retry";
    }
    if (status === 529 || status >= 500) return "retry";
    if (status === 401 || status === 402 || status === 403) return "key_refused";
    return "bad_request";
  },
  errorCode: (body) => nestedErrorCode(body, "type"),
};
