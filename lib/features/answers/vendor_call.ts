/**
 * One question put to one vendor: the request goes to the adapter's own host only, through the
 * guarded fetcher (no redirect followed, a deadline per attempt, the answer's size capped), and
 * the vendors' documented retry answers are honoured: a 429 or a 5xx (Anthropic's 529 too) is
 * tried again after the `Retry-After` the vendor sent (or the delay its body names), else after an
 * exponential back-off with jitter, at most {@link MAX_RETRIES} times and never waiting longer than
 * {@link MAX_WAIT_MS}; a refused key, a spent quota or a bad request is not retried. The vendor's
 * error message is never kept (it may quote part of the key): only its status and error code.
 *
 * The vendor's body is read in a worker (`read`: the "vendor-answer" job,
 * lib/features/answers/vendor_answer.ts), never here on the server's thread: this module holds the key and
 * the retries, and acts on what the reading says.
 */
import { FetchError, type GuardedFetcher } from "../../kit/net/types.ts";
import type { AnswerSource, ProviderAdapter, ProviderId, Usage } from "./provider.ts";
import type { Presence } from "./presence.ts";
import type { VendorReading } from "./vendor_answer.ts";

/** Retries after the first attempt. */
export const MAX_RETRIES = 2;
/** The longest wait before a retry; a vendor asking for more is given up on for this call. */
export const MAX_WAIT_MS = 30_000;
/** The largest vendor answer read (Anthropic's search results carry encrypted page content). */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** Why a call gave no answer. */
export type CallFailure =
  /** 429 after every retry, or a Retry-After longer than {@link MAX_WAIT_MS}. */
  | "rate_limited"
  /** 5xx (or 529) after every retry. */
  | "server_error"
  /** 401/403, or a quota or spend limit reached: the vendor will not answer this key today. */
  | "key_refused"
  /** The vendor refused the request itself (a model name, a parameter). */
  | "bad_request"
  /** A 2xx body that is not the documented shape, or has no answer text. */
  | "invalid_response"
  | "timeout"
  | "network";

/** An answer as the call keeps it (text clipped, presence judged on the whole text). */
export interface KeptAnswer {
  text: string;
  cut: boolean;
  /** The sources kept for display; presence has read them all. */
  sources: AnswerSource[];
  sourceTotal: { cited: number; retrieved: number };
  queries: string[];
  usage: Usage;
  model: string | null;
  presence: Presence;
}

/** How a call went. */
export type CallOutcome =
  | { ok: true; answer: KeptAnswer; attempts: number }
  | {
    ok: false;
    failure: CallFailure;
    /** The vendor's last HTTP status, or null when none came. */
    status: number | null;
    /** The vendor's error code or type (never its message). */
    code: string | null;
    attempts: number;
    /** What the vendor asked to wait, when it did. */
    retryAfterMs: number | null;
  };

/** What a call needs. */
export interface CallOptions {
  fetcher: GuardedFetcher;
  /** Deadline of one attempt. */
  timeoutMs: number;
  /** Waits before a retry (tests pass one that records and returns at once). */
  sleep: (ms: number) => Promise<void>;
  /** The clock, for a Retry-After given as a date. */
  now: () => number;
  /** Jitter source, 0..1 (tests fix it). */
  random?: () => number;
  signal?: AbortSignal;
  /**
   * Reads one response of the vendor (a worker's "vendor-answer" job); the body is null when it
   * was over the size cap. Rejects only when it could not be read at all (a worker past its
   * limits), which counts as an invalid response.
   */
  read: (response: { provider: ProviderId; status: number; body: string | null }) => Promise<
    VendorReading
  >;
}

/** Asks `question` of `provider` with `key`. Never throws for what the vendor answers. */
export async function callProvider(
  provider: ProviderAdapter,
  question: string,
  model: string,
  key: string,
  options: CallOptions,
): Promise<CallOutcome> {
  const request = provider.request(question, model, key);
  // The one place a vendor URL is fetched: it must be the adapter's own host.
  if (new URL(request.url).hostname !== provider.host) {
    throw new Error(`${provider.id}: a request to ${new URL(request.url).hostname} was refused`);
  }
  const random = options.random ?? Math.random;
  let last: Extract<CallOutcome, { ok: false }> | null = null;
  for (let attempt = 1; attempt <= MAX_RETRIES + 1; attempt++) {
    let status: number;
    let headers: Record<string, string>;
    let body: string | null;
    try {
      const r = await options.fetcher.fetch(request.url, {
        method: "POST",
        headers: { accept: "application/json", ...request.headers },
        body: request.body,
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
        signal: options.signal,
      });
      status = r.status;
      headers = r.headers;
      body = r.truncated ? null : r.body;
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      const failure = error.kind === "timeout" ? "timeout" : "network";
      last = {
        ok: false,
        failure,
        status: null,
        code: null,
        attempts: attempt,
        retryAfterMs: null,
      };
      // A timed-out search may still be billed: it is not asked again. A dropped connection is.
      if (failure === "timeout" || attempt > MAX_RETRIES) return last;
      await options.sleep(backoff(attempt, random));
      continue;
    }
    let reading: VendorReading;
    try {
      reading = await options.read({ provider: provider.id, status, body });
    } catch {
      // Not read (its worker went past its limits): a 2xx is an invalid answer; any other
      // status is judged by itself.
      reading = status >= 200 && status < 300
        ? { kind: "invalid" }
        : { kind: "error", class: provider.classify(status, null), code: null, retryDelayMs: null };
    }
    if (reading.kind === "answer") {
      const { kind: _, ...answer } = reading;
      return { ok: true, answer, attempts: attempt };
    }
    if (reading.kind === "invalid") {
      return {
        ok: false,
        failure: "invalid_response",
        status,
        code: null,
        attempts: attempt,
        retryAfterMs: null,
      };
    }
    const kind = reading.class;
    const asked = retryAfterMs(headers["retry-after"], options.now()) ?? reading.retryDelayMs;
    last = {
      ok: false,
      failure: kind === "retry"
        ? (status === 429 ? "rate_limited" : "server_error")
        : kind === "key_refused"
        ? "key_refused"
        : "bad_request",
      status,
      code: reading.code,
      attempts: attempt,
      retryAfterMs: asked,
    };
    if (kind !== "retry" || attempt > MAX_RETRIES) return last;
    const wait = asked ?? backoff(attempt, random);
    if (wait > MAX_WAIT_MS) return last;
    await options.sleep(wait);
  }
  return last!;
}

/** 1 s, 2 s, ... plus up to 250 ms of jitter, so parallel callers do not retry in step. */
function backoff(attempt: number, random: () => number): number {
  return 1000 * 2 ** (attempt - 1) + Math.floor(random() * 250);
}

/** A Retry-After header (seconds, or an HTTP date) in ms from `now`; null when absent or bad. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
