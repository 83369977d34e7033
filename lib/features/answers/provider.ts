/**
 * What an answer-presence provider is: one vendor's documented API, called with one key, whose
 * answer text and cited sources are read exactly as the vendor documents them. Each vendor is one
 * module (openai.ts, perplexity.ts, anthropic.ts, gemini.ts) exporting a {@link ProviderAdapter};
 * the call itself (timeouts, retries, rate limits) is vendor_call.ts.
 */
import type { CallPrice, ProviderId } from "./config.ts";
import type { DatedSource } from "../../kit/dated_source.ts";
export type { CallPrice, ProviderId } from "./config.ts";

/**
 * A page of the vendor's documentation an adapter follows, and the day it was read (a stored copy
 * of it, through the project's search tool): a dated source.
 */
export interface VendorDoc extends DatedSource {
  title: string;
}

/** One source an answer names. */
export interface AnswerSource {
  url: string;
  title: string | null;
  /**
   * The host the source is on: its URL's, or the one the vendor names when the URL does not tell
   * (Gemini's grounding chunks link through a Google redirect and name the site in `title` or
   * `domain`); null when neither says (such a source counts for no site).
   */
  host: string | null;
  /**
   * "cited": the answer's text cites it (an annotation, a citation, a grounding support);
   * "retrieved": the search returned it but the text does not cite it.
   */
  kind: "cited" | "retrieved";
}

/** What one call used, as the vendor's response reports it (0 when it does not say). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Web searches the call ran (OpenAI web_search_call items, Anthropic web_search_requests...). */
  searches: number;
}

/** An answer as read from a vendor's response. */
export interface ParsedAnswer {
  text: string;
  sources: AnswerSource[];
  usage: Usage;
  /** The model the vendor says answered. */
  model: string | null;
}

/** The request an adapter builds: always to its own host. */
export interface VendorRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How a non-2xx answer is to be treated (from the vendor's documented error codes). */
export type ErrorClass =
  /** Wait (Retry-After, or back off) and try again. */
  | "retry"
  /** The key is refused or has no credit left: stop calling this vendor in this run. */
  | "key_refused"
  /** The request is wrong for this vendor (a model name, a parameter): do not retry. */
  | "bad_request";

/** One vendor. */
export interface ProviderAdapter {
  id: ProviderId;
  /** "ChatGPT search (OpenAI)". */
  label: string;
  /** The only host requests go to. */
  host: string;
  /** Which API and version the adapter follows, in words. */
  api: string;
  /** The documentation it follows (request, response, errors, rate limits, prices). */
  docs: VendorDoc[];
  /** The model asked when the operator names none. */
  defaultModel: string;
  /** The default price of one call of the default model, and what it assumes. */
  price: { value: CallPrice; assumes: string; source: VendorDoc };
  /**
   * What one call is assumed to use, for the estimate: input tokens (the question, and the search
   * results the vendor bills as input), output tokens (the adapter's own cap on the answer) and
   * web searches.
   */
  assumed: { input: number; output: number; searches: number };
  /**
   * The vendor's crawlers whose access plausibly matters for its answers: the search crawler that
   * builds what it cites, the agent that fetches a page for a user, and other tokens it honours.
   */
  crawlers: { search: string[]; user: string[]; other: string[] };
  /** The request of one question. */
  request(question: string, model: string, key: string): VendorRequest;
  /** Reads a 2xx body. @throws InvalidResponseError when it is not the documented shape. */
  parse(body: unknown): ParsedAnswer;
  /** What a non-2xx answer means (status and parsed body, null when it is not JSON). */
  classify(status: number, body: unknown): ErrorClass;
  /** The vendor's error code or type in a non-2xx body (never its message), for the record. */
  errorCode(body: unknown): string | null;
  /** A wait the body asks for, in ms (Gemini's RetryInfo), beside the Retry-After header. */
  retryDelayMs?(body: unknown): number | null;
}

/** A 2xx body that is not what the vendor documents. */
export class InvalidResponseError extends Error {
  override name = "InvalidResponseError";
}

/** The longest answer text kept (characters); the rest is cut and marked. */
export const MAX_ANSWER_CHARS = 4000;
/** The most sources kept per answer. */
export const MAX_SOURCES = 20;
/** The longest source URL and title kept. */
export const MAX_URL_CHARS = 500;
export const MAX_TITLE_CHARS = 200;
/** The longest answer an adapter asks for (tokens): bounds both the cost and the text. */
export const MAX_OUTPUT_TOKENS = 1024;

/** An object's property, or undefined. */
export function field(value: unknown, key: string): unknown {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** An array, or []. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string, or null. */
export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** A non-negative finite number, or 0. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * The sources of an answer, de-duplicated by URL (a cited entry wins over a retrieved one), only
 * http(s) URLs, cut to {@link MAX_SOURCES} with their URL and title cut to size.
 */
export function keptSources(sources: AnswerSource[]): AnswerSource[] {
  const byUrl = new Map<string, AnswerSource>();
  for (const s of sources) {
    if (!/^https?:\/\//i.test(s.url)) continue;
    const url = s.url.slice(0, MAX_URL_CHARS);
    const before = byUrl.get(url);
    if (before && (before.kind === "cited" || s.kind === "retrieved")) continue;
    byUrl.set(url, {
      url,
      title: s.title === null ? null : s.title.slice(0, MAX_TITLE_CHARS),
      host: s.host === null ? null : s.host.slice(0, 253).toLowerCase(),
      kind: s.kind,
    });
  }
  // Cited sources first: they are what the measures read, so a cap never drops one for a
  // retrieved one.
  const all = [...byUrl.values()];
  return [...all.filter((s) => s.kind === "cited"), ...all.filter((s) => s.kind === "retrieved")]
    .slice(0, MAX_SOURCES);
}

/** The host name of a URL (lower case), or null. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** The error code of a body shaped `{"error": {"type"|"code"|"status": ...}}`. */
export function nestedErrorCode(body: unknown, ...keys: string[]): string | null {
  const error = field(body, "error");
  for (const key of keys) {
    const v = field(error, key);
    if (typeof v === "string" && /^[A-Za-z0-9_.-]{1,80}$/.test(v)) return v;
  }
  return null;
}
