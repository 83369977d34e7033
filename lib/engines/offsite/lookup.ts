/**
 * The plumbing every off-site lookup shares: one guarded request with the off-site limits, turning
 * every way it can fail into a reason string, and a deadline that bounds a whole check.
 *
 * Failures are values here, not exceptions: a lookup that failed must end as an "unknown" check
 * with an honest detail, never as "not_found", so each caller has to look at the reason.
 * @module
 */
import type { z } from "zod";
import { type HostEtiquette, ThrottledError } from "./etiquette.ts";
import {
  FetchError,
  type FetchErrorKind,
  type FetchResult,
  type GuardedFetcher,
} from "../../kit/net/types.ts";

/** Body bytes kept per off-site response: generous for these APIs, small enough to be safe. */
export const OFFSITE_MAX_BYTES = 2 * 1024 * 1024;

/** Redirects followed: these APIs answer directly; a couple covers http -> https moves. */
const OFFSITE_MAX_REDIRECTS = 2;

/** What each lookup needs to make requests. */
export interface LookupContext {
  fetcher: GuardedFetcher;
  /** Budget of one request (the configured off-site timeout). */
  timeoutMs: number;
  /** Aborts when the check's deadline passes or the caller cancels. */
  signal: AbortSignal;
  /** Per-host series, pacing and back-off (lib/engines/offsite/etiquette.ts); none in some unit tests. */
  etiquette?: HostEtiquette;
}

/** The outcome of one lookup: a value, or why there is none. */
export type Lookup<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A successful {@link Lookup}. */
export function ok<T>(value: T): Lookup<T> {
  return { ok: true, value };
}

/** A failed {@link Lookup}. */
export function failed<T>(reason: string): Lookup<T> {
  return { ok: false, reason };
}

/** The abort reason a check's own deadline uses, so it can be told apart from a cancellation. */
export class DeadlineReached extends Error {
  override name = "DeadlineReached";
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

/**
 * Starts a check's deadline: calls `fire` once `ms` have passed and returns what cancels it. The
 * real one is a timer; a test passes one it fires on an event (a request that will never be
 * answered has arrived), so what it proves does not depend on how busy the machine is.
 */
export type DeadlineTimer = (ms: number, fire: () => void, check: OffSiteCheckName) => () => void;

/** The three off-site checks, as a deadline is told which one it bounds. */
export type OffSiteCheckName = "wikidata" | "wikipedia" | "commonCrawl";

/** The deadline of a real scan: a timer. */
export const realDeadline: DeadlineTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/** Describes why `signal` aborted, for a detail string. */
export function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof DeadlineReached ? signal.reason.message : "cancelled";
}

/**
 * Sends one GET through the guarded fetcher with the off-site limits.
 *
 * Only transport failures are failures here; any HTTP status is a response for the caller to
 * judge (the Common Crawl index answers "no captures" with a 404).
 */
export async function request(ctx: LookupContext, url: string): Promise<Lookup<FetchResult>> {
  if (ctx.signal.aborted) return failed(abortReason(ctx.signal));
  const send = () =>
    ctx.fetcher.fetch(url, {
      method: "GET",
      // No userAgent override: the fetcher's default names the bot and a contact URL.
      headers: { Accept: "application/json" },
      maxBytes: OFFSITE_MAX_BYTES,
      maxRedirects: OFFSITE_MAX_REDIRECTS,
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
    });
  const host = new URL(url).host;
  const pending = ctx.etiquette ? ctx.etiquette.run(host, ctx.signal, send) : send();
  try {
    const result = await raceAbort(pending, ctx.signal);
    // 429 Too Many Requests and 503 (Common Crawl's "Slow Down", Wikimedia's overload): back off.
    if (result.status === 429 || result.status === 503) {
      ctx.etiquette?.throttled(host, result.headers["retry-after"]);
    }
    return ok(result);
  } catch (error) {
    if (error instanceof ThrottledError) return failed(error.message);
    if (ctx.signal.aborted) return failed(abortReason(ctx.signal));
    return failed(describeFetchError(error));
  }
}

/**
 * GETs `url` and validates its JSON body against `schema`.
 *
 * MediaWiki reports many errors with a 200 and an `{"error": {"code": ...}}` body; those are
 * failures too.
 */
export async function getJson<T>(
  ctx: LookupContext,
  url: string,
  schema: z.ZodType<T>,
): Promise<Lookup<T>> {
  const response = await request(ctx, url);
  if (!response.ok) return response;
  const { status, body, truncated } = response.value;
  if (status < 200 || status > 299) return failed(`HTTP ${status}`);
  if (truncated) return failed(`response larger than ${OFFSITE_MAX_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return failed("invalid JSON");
  }
  const apiError = mediaWikiErrorCode(json);
  if (apiError === "maxlag") {
    // The database replicas are lagging: MediaWiki asks every client to wait (Retry-After).
    ctx.etiquette?.throttled(new URL(url).host, response.value.headers["retry-after"]);
  }
  if (apiError !== null) return failed(`API error "${apiError}"`);
  const parsed = schema.safeParse(json);
  if (!parsed.success) return failed("unexpected response shape");
  return ok(parsed.data);
}

/**
 * Runs `task` with a signal that aborts after `timeoutMs` or when `outer` aborts, and settles by
 * then even if the task ignores its signal: the scan must never wait on a stuck lookup.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  task: (signal: AbortSignal) => Promise<T>,
  onAbort: (reason: string) => T,
  check: OffSiteCheckName,
  deadline: DeadlineTimer = realDeadline,
): Promise<T> {
  const controller = new AbortController();
  const cancel = deadline(
    timeoutMs,
    () => controller.abort(new DeadlineReached(timeoutMs)),
    check,
  );
  const relay = () => controller.abort(outer?.reason);
  if (outer?.aborted) relay();
  else outer?.addEventListener("abort", relay, { once: true });
  try {
    return await raceAbort(task(controller.signal), controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return onAbort(abortReason(controller.signal));
    throw error;
  } finally {
    cancel();
    outer?.removeEventListener("abort", relay);
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts, whichever comes first. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  // The loser may still reject later; it must not become an unhandled rejection.
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Plain words per fetch error kind; the fetcher's own message may name internal addresses. */
const FETCH_ERROR_WORDS: Record<FetchErrorKind, string> = {
  invalid_url: "invalid URL",
  blocked: "address not allowed",
  dns: "host name did not resolve",
  timeout: "timed out",
  too_many_redirects: "too many redirects",
  network: "network error",
};

function describeFetchError(error: unknown): string {
  if (error instanceof FetchError) return FETCH_ERROR_WORDS[error.kind] ?? "request failed";
  return "request failed";
}

/** The `error.code` of a MediaWiki error body, made safe to show; null when there is none. */
function mediaWikiErrorCode(json: unknown): string | null {
  if (!json || typeof json !== "object" || Array.isArray(json) || !("error" in json)) return null;
  const error = json.error;
  if (!error || typeof error !== "object") return null;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  // The code ends up in a public report: keep it short and plain.
  return code.replace(/[^\w-]/g, "").slice(0, 60) || "unknown";
}
