/**
 * OpenAI's Responses API with its web search tool: `POST https://api.openai.com/v1/responses`
 * with `tools: [{"type": "web_search"}]`. The answer is the `output_text` parts of the `message`
 * output item; the sources it cites are that text's `url_citation` annotations; the sources the
 * search consulted are `web_search_call.action.sources` (asked for with `include`). A 429 whose
 * error is `insufficient_quota` (or a billing code) means no credit: never retried.
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
  nestedErrorCode,
  type ProviderAdapter,
  str,
} from "./provider.ts";
import { VENDOR_DOCS } from "./vendor_docs.ts";

/** The answer's cap: reasoning models spend part of it thinking, so it is larger than others'. */
const OUTPUT_TOKENS = 2048;

/** 429 codes that mean money ran out, not a rate (OpenAI's error codes page). */
const BILLING = new Set([
  "insufficient_quota",
  "credit_balance_exhausted",
  "organization_spend_limit_exceeded",
  "project_spend_limit_exceeded",
  "organization_usage_limit_exceeded",
]);

export const openai: ProviderAdapter = {
  id: "openai",
  label: "ChatGPT search (OpenAI)",
  host: "api.openai.com",
  api:
    "Responses API, POST /v1/responses, tool web_search (include web_search_call.action.sources)",
  docs: [VENDOR_DOCS.openaiWebSearch, VENDOR_DOCS.openaiErrors, VENDOR_DOCS.openaiPricing],
  defaultModel: "gpt-5.4-mini",
  surface: "API with web search (the Responses API), not the ChatGPT app",
  returnsQueries: true,
  price: {
    value: { perRequest: 0, perSearch: 0.01, inputPerMTok: 0.75, outputPerMTok: 4.5 },
    assumes:
      "gpt-5.4-mini ($0.75 / $4.50 per million input / output tokens); one web search per call " +
      "($10 per 1,000 calls); the search content is billed as input tokens at the model's rate",
    source: VENDOR_DOCS.openaiPricing,
  },
  assumed: { input: 8000, output: OUTPUT_TOKENS, searches: 1 },
  crawlers: { search: ["OAI-SearchBot"], user: ["ChatGPT-User"], other: [] },
  request(question, model, key) {
    return {
      url: "https://api.openai.com/v1/responses",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model,
        input: question,
        tools: [{ type: "web_search" }],
        include: ["web_search_call.action.sources"],
        max_output_tokens: OUTPUT_TOKENS,
        store: false,
      }),
    };
  },
  parse(body) {
    const output = field(body, "output");
    if (!Array.isArray(output)) throw new InvalidResponseError("no output array");
    const texts: string[] = [];
    const sources: Omit<AnswerSource, "rank">[] = [];
    let searches = 0;
    const queries: unknown[] = [];
    for (const item of output) {
      const type = field(item, "type");
      if (type === "web_search_call") {
        searches++;
        // The action's `queries` (its older `query` is kept where only that is given).
        const action = field(item, "action");
        const asked = list(field(action, "queries"));
        queries.push(...(asked.length ? asked : [field(action, "query")]));
        for (const s of list(field(field(item, "action"), "sources"))) {
          const url = str(field(s, "url"));
          if (url) sources.push({ url, title: null, host: hostOf(url), kind: "retrieved" });
        }
      }
      if (type !== "message") continue;
      for (const part of list(field(item, "content"))) {
        if (field(part, "type") !== "output_text") continue;
        texts.push(str(field(part, "text")) ?? "");
        for (const a of list(field(part, "annotations"))) {
          const url = str(field(a, "url"));
          if (field(a, "type") === "url_citation" && url) {
            sources.push({ url, title: str(field(a, "title")), host: hostOf(url), kind: "cited" });
          }
        }
      }
    }
    const text = texts.join("\n").trim();
    if (!text) throw new InvalidResponseError("no output_text in the response");
    const usage = field(body, "usage");
    return {
      text,
      sources: keptSources(sources),
      queries: keptQueries(queries),
      usage: {
        inputTokens: count(field(usage, "input_tokens")),
        outputTokens: count(field(usage, "output_tokens")),
        searches,
      },
      model: str(field(body, "model")),
    };
  },
  classify(status, body) {
    const error = field(body, "error");
    const codes = [field(error, "type"), field(error, "code")];
    if (status === 429) return codes.some((c) => BILLING.has(String(c))) ? "key_refused" : "retry";
    if (status >= 500) return "retry";
    if (status === 401 || status === 402 || status === 403) return "key_refused";
    return "bad_request";
  },
  errorCode: (body) => nestedErrorCode(body, "code", "type"),
};
