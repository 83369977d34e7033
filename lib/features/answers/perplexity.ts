/**
 * Perplexity's Sonar API: `POST https://api.perplexity.ai/chat/completions` (OpenAI's chat format)
 * with `web_search_options.search_context_size: "low"` (the cheapest request fee). The answer is
 * `choices[0].message.content`; the sources it cites are `citations` (URLs, numbered [1], [2] in
 * the text) and `search_results` (title, URL, date) gives their titles; a search result that is
 * not among the citations is retrieved, not cited.
 */
import {
  type AnswerSource,
  count,
  field,
  hostOf,
  InvalidResponseError,
  keptSources,
  list,
  MAX_OUTPUT_TOKENS,
  nestedErrorCode,
  type ProviderAdapter,
  str,
} from "./provider.ts";
import { VENDOR_DOCS } from "./vendor_docs.ts";

export const perplexity: ProviderAdapter = {
  id: "perplexity",
  label: "Perplexity (Sonar)",
  host: "api.perplexity.ai",
  api: "Sonar API, POST /chat/completions (OpenAI-compatible), citations and search_results",
  docs: [
    VENDOR_DOCS.perplexityApi,
    VENDOR_DOCS.perplexityOpenAi,
    VENDOR_DOCS.perplexityContext,
    VENDOR_DOCS.perplexityPricing,
  ],
  defaultModel: "sonar",
  surface: "API with web search (the Sonar API), not the Perplexity app",
  // The Sonar response documents its citations and search results, not the queries it ran.
  returnsQueries: false,
  price: {
    value: { perRequest: 0.005, perSearch: 0, inputPerMTok: 1, outputPerMTok: 1 },
    assumes:
      "sonar ($1 / $1 per million input / output tokens) and its request fee at a low search " +
      "context size ($5 per 1,000 requests)",
    source: VENDOR_DOCS.perplexityPricing,
  },
  assumed: { input: 1000, output: MAX_OUTPUT_TOKENS, searches: 1 },
  crawlers: { search: ["PerplexityBot"], user: ["Perplexity-User"], other: [] },
  request(question, model, key) {
    return {
      url: "https://api.perplexity.ai/chat/completions",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model,
        messages: [{ role: "user", content: question }],
        max_tokens: MAX_OUTPUT_TOKENS,
        web_search_options: { search_context_size: "low" },
      }),
    };
  },
  parse(body) {
    const choice = list(field(body, "choices"))[0];
    const text = str(field(field(choice, "message"), "content"))?.trim() ?? "";
    if (!text) throw new InvalidResponseError("no choices[0].message.content");
    const citations = list(field(body, "citations")).map(str).filter((u): u is string => !!u);
    const cited = new Set(citations);
    const titles = new Map<string, string | null>();
    const sources: Omit<AnswerSource, "rank">[] = [];
    for (const r of list(field(body, "search_results"))) {
      const url = str(field(r, "url"));
      if (!url) continue;
      titles.set(url, str(field(r, "title")));
      if (!cited.has(url)) {
        sources.push({ url, title: str(field(r, "title")), host: hostOf(url), kind: "retrieved" });
      }
    }
    const usage = field(body, "usage");
    return {
      text,
      sources: keptSources([
        ...citations.map((url): Omit<AnswerSource, "rank"> => ({
          url,
          title: titles.get(url) ?? null,
          host: hostOf(url),
          kind: "cited",
        })),
        ...sources,
      ]),
      queries: [],
      usage: {
        inputTokens: count(field(usage, "prompt_tokens")),
        outputTokens: count(field(usage, "completion_tokens")),
        // Sonar searches once per request; the usage block says so when it counts queries.
        searches: count(field(usage, "num_search_queries")) || 1,
      },
      model: str(field(body, "model")),
    };
  },
  classify(status) {
    if (status === 429 || status >= 500) return "retry";
    if (status === 401 || status === 402 || status === 403) return "key_refused";
    return "bad_request";
  },
  errorCode: (body) => nestedErrorCode(body, "type", "code"),
};
