/**
 * The Gemini API with Grounding with Google Search:
 * `POST https://generativelanguage.googleapis.com/v1beta/models/<model>:generateContent` with
 * `tools: [{"google_search": {}}]`. The answer is the text parts of `candidates[0].content`; its
 * sources are `groundingMetadata.groundingChunks[].web` ({uri, title}); a chunk that a
 * `groundingSupports` entry points to (`groundingChunkIndices`) is cited, the others retrieved.
 * Google documents `uri` as a redirect through its own host, with the site in `title` (and
 * `domain` where present): the site is read from those, never by following the redirect. 429
 * `RESOURCE_EXHAUSTED` may carry a `google.rpc.RetryInfo` delay, which is honoured.
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

/** The answer's cap (Gemini 3 models count their thinking in it). */
const OUTPUT_TOKENS = 2048;

/** A host name as Google writes a grounding chunk's title or domain ("example.com"). */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i;

/** Hosts Google's grounding chunks link through (the example responses' `uri`). */
const REDIRECT_HOSTS = ["vertexaisearch.cloud.google.com"];

export const gemini: ProviderAdapter = {
  id: "gemini",
  label: "Gemini (Google)",
  host: "generativelanguage.googleapis.com",
  api: "Gemini API v1beta, POST models/<model>:generateContent, tool google_search (grounding)",
  docs: [
    VENDOR_DOCS.geminiGrounding,
    VENDOR_DOCS.geminiErrors,
    VENDOR_DOCS.geminiPricing,
    VENDOR_DOCS.googleExtendedGrounding,
  ],
  defaultModel: "gemini-3-flash-preview",
  surface: "API with Google Search grounding (the Gemini API), not the Gemini app",
  returnsQueries: true,
  price: {
    value: { perRequest: 0, perSearch: 0.014, inputPerMTok: 0.5, outputPerMTok: 3 },
    assumes:
      "gemini-3-flash-preview ($0.50 / $3.00 per million input / output tokens); two Google " +
      "Search queries per call ($14 per 1,000 search queries on Gemini 3 models)",
    source: VENDOR_DOCS.geminiPricing,
  },
  assumed: { input: 2000, output: OUTPUT_TOKENS, searches: 2 },
  // Google Search's crawler builds the index; Google says grounding on its Cloud platform does not
  // use pages that disallow Google-Extended (VENDOR_DOCS.googleExtendedGrounding).
  crawlers: { search: ["Googlebot"], user: [], other: ["Google-Extended"] },
  request(question, model, key) {
    return {
      url: `https://generativelanguage.googleapis.com/v1beta/models/${
        encodeURIComponent(model)
      }:generateContent`,
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: question }] }],
        tools: [{ google_search: {} }],
        generationConfig: { maxOutputTokens: OUTPUT_TOKENS },
      }),
    };
  },
  parse(body) {
    const candidate = list(field(body, "candidates"))[0];
    const text = list(field(field(candidate, "content"), "parts"))
      .map((p) => str(field(p, "text")) ?? "").join("").trim();
    if (!text) throw new InvalidResponseError("no text in candidates[0].content.parts");
    const meta = field(candidate, "groundingMetadata");
    const supported = new Set<number>();
    for (const s of list(field(meta, "groundingSupports"))) {
      for (const i of list(field(s, "groundingChunkIndices"))) {
        if (typeof i === "number") supported.add(i);
      }
    }
    const sources: Omit<AnswerSource, "rank">[] = [];
    list(field(meta, "groundingChunks")).forEach((chunk, i) => {
      const web = field(chunk, "web");
      const uri = str(field(web, "uri"));
      if (!uri) return;
      const title = str(field(web, "title"));
      const named = str(field(web, "domain")) ?? title;
      const linked = hostOf(uri);
      sources.push({
        url: uri,
        title,
        // The named site; else the URL's host unless it is Google's redirect (then: unknown).
        host: named && HOST.test(named.trim())
          ? named.trim()
          : linked && !REDIRECT_HOSTS.some((h) => linked === h || linked.endsWith(`.${h}`))
          ? linked
          : null,
        kind: supported.has(i) ? "cited" : "retrieved",
      });
    });
    const usage = field(body, "usageMetadata");
    return {
      text,
      sources: keptSources(sources),
      queries: keptQueries(list(field(meta, "webSearchQueries"))),
      usage: {
        inputTokens: count(field(usage, "promptTokenCount")) +
          count(field(usage, "toolUsePromptTokenCount")),
        outputTokens: count(field(usage, "candidatesTokenCount")) +
          count(field(usage, "thoughtsTokenCount")),
        searches: list(field(meta, "webSearchQueries")).length,
      },
      model: str(field(body, "modelVersion")),
    };
  },
  classify(status, body) {
    const state = field(field(body, "error"), "status");
    if (status === 429 || status >= 500) return "retry";
    if (status === 401 || status === 402 || status === 403) return "key_refused";
    // FAILED_PRECONDITION: billing is not enabled for the key's project (the troubleshooting page).
    if (state === "FAILED_PRECONDITION") return "key_refused";
    return "bad_request";
  },
  errorCode: (body) => nestedErrorCode(body, "status"),
  retryDelayMs(body) {
    for (const d of list(field(field(body, "error"), "details"))) {
      const type = str(field(d, "@type")) ?? "";
      const delay = str(field(d, "retryDelay"));
      const m = delay?.match(/^(\d+(?:\.\d+)?)s$/);
      if (type.endsWith("google.rpc.RetryInfo") && m) return Math.round(Number(m[1]) * 1000);
    }
    return null;
  },
};
