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
  /**
   * Its place among the answer's sources of the same kind, from 1, in the order the vendor lists
   * them (the first citation is rank 1). Counted before any display cap.
   */
  rank: number;
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
  /**
   * Every source the answer gives (de-duplicated by URL, http(s) only), cited ones first: the
   * measures read all of them; only what is kept for display is cut ({@link MAX_SOURCES}).
   */
  sources: AnswerSource[];
  /** The web searches the assistant ran, as its API reports them ([] where it reports none). */
  queries: string[];
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
  /**
   * Where the answers come from, in words a reader sees beside every rate: an API answer with web
   * search is not what the vendor's consumer app shows a person.
   */
  surface: string;
  /** Whether the vendor's documented response names the searches it ran (kept as `queries`). */
  returnsQueries: boolean;
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
/** The most sources kept per answer for display (every source is counted before this cut). */
export const MAX_SOURCES = 20;
/** The most search queries kept per answer, and the longest kept. */
export const MAX_QUERIES = 20;
export const MAX_QUERY_CHARS = 300;
/**
 * The most sources read from one answer: far beyond any documented answer (tens of sources), it
 * only bounds what a hostile 2 MB body could make the parse keep.
 */
export const MAX_SOURCES_READ = 2000;
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
 * http(s) URLs, their URL and title cut to size, cited ones first, each with its rank among its
 * kind. Nothing is dropped for display here: the counting reads every source
 * ({@link MAX_SOURCES_READ} bounds a hostile body); {@link displayedSources} cuts for display.
 */
export function keptSources(sources: Omit<AnswerSource, "rank">[]): AnswerSource[] {
  const byUrl = new Map<string, Omit<AnswerSource, "rank">>();
  for (const s of sources) {
    if (!/^https?:\/\//i.test(s.url)) continue;
    const url = s.url.slice(0, MAX_URL_CHARS);
    const before = byUrl.get(url);
    if (before && (before.kind === "cited" || s.kind === "retrieved")) continue;
    if (!before && byUrl.size >= MAX_SOURCES_READ) break;
    byUrl.set(url, {
      url,
      title: s.title === null ? null : s.title.slice(0, MAX_TITLE_CHARS),
      host: s.host === null ? null : s.host.slice(0, 253).toLowerCase(),
      kind: s.kind,
    });
  }
  const all = [...byUrl.values()];
  const ranked = (kind: AnswerSource["kind"]) =>
    all.filter((s) => s.kind === kind).map((s, i) => ({ ...s, rank: i + 1 }));
  return [...ranked("cited"), ...ranked("retrieved")];
}

/**
 * What is kept of an answer's sources for display: the first {@link MAX_SOURCES}, cited ones first
 * (the counting has already read them all), and how many there were of each kind.
 */
export function displayedSources(
  sources: AnswerSource[],
): { kept: AnswerSource[]; total: { cited: number; retrieved: number } } {
  return {
    kept: sources.slice(0, MAX_SOURCES),
    total: {
      cited: sources.filter((s) => s.kind === "cited").length,
      retrieved: sources.filter((s) => s.kind === "retrieved").length,
    },
  };
}

/** Search queries as kept: strings only, trimmed, de-duplicated, capped in count and length. */
export function keptQueries(values: unknown[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== "string") continue;
    const q = v.replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_CHARS);
    if (q) out.add(q);
    if (out.size >= MAX_QUERIES) break;
  }
  return [...out];
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
