/**
 * Reading a vendor's answer (the "vendor-answer" job, lib/features/answers/jobs.ts): the body a vendor
 * sent, up to 2 MiB of JSON of any shape, is parsed, read through the adapter's documented shape
 * (lib/features/answers/provider.ts `parse`, `classify`, `errorCode`, `retryDelayMs`) and judged for the
 * site (lib/features/answers/presence.ts) in a worker, never on the server's thread: a body of 900,000
 * nested arrays held the server's thread 4.7 s in `JSON.parse` (issue 39). What comes back is
 * bounded: the answer's text clipped to {@link MAX_ANSWER_CHARS}, the sources kept for display
 * with their totals, the searches, the usage, and the presence verdicts computed on the whole text
 * and every source.
 *
 * lib/features/answers/vendor_call.ts sends the body (it holds the key, which never reaches a worker) and
 * acts on the reading: retry, stop, or keep the sample.
 */
import {
  type AnswerSource,
  displayedSources,
  type ErrorClass,
  InvalidResponseError,
  MAX_ANSWER_CHARS,
  type ProviderId,
  type Usage,
} from "./provider.ts";
import { providerOf } from "./providers.ts";
import { type Presence, presenceOf, type SiteIdentity } from "./presence.ts";

/** A "vendor-answer" job: one response of one vendor, and the site it is judged for. */
export interface VendorAnswerJob {
  kind: "vendor-answer";
  provider: ProviderId;
  status: number;
  /** The body as text; null when it was over the size cap (then it is not read). */
  body: string | null;
  site: SiteIdentity;
}

/** What a vendor's response says, read. */
export type VendorReading =
  /** A 2xx answer in the documented shape. */
  | {
    kind: "answer";
    /** At most {@link MAX_ANSWER_CHARS} characters; `cut` says whether there was more. */
    text: string;
    cut: boolean;
    /** The sources kept for display (presence has read them all). */
    sources: AnswerSource[];
    /** How many sources of each kind the answer gave. */
    sourceTotal: { cited: number; retrieved: number };
    /** The searches the assistant ran, where its API says (capped). */
    queries: string[];
    usage: Usage;
    model: string | null;
    presence: Presence;
  }
  /** A 2xx body that is not JSON, over the cap, or not the documented shape. */
  | { kind: "invalid" }
  /** A non-2xx answer: what it means, the vendor's error code, the wait its body asks for. */
  | { kind: "error"; class: ErrorClass; code: string | null; retryDelayMs: number | null };

/** Time one reading is given in its worker (a 2 MiB body parses in well under a second). */
export const VENDOR_ANSWER_TIMEOUT_MS = 10_000;

/** Reads one response (see the module comment). */
export function readVendorAnswer(job: VendorAnswerJob): VendorReading {
  const provider = providerOf(job.provider);
  const body = job.body === null ? undefined : parseJson(job.body);
  if (job.status >= 200 && job.status < 300) {
    if (body === undefined) return { kind: "invalid" };
    try {
      const answer = provider.parse(body);
      const shown = displayedSources(answer.sources);
      return {
        kind: "answer",
        text: answer.text.slice(0, MAX_ANSWER_CHARS),
        cut: answer.text.length > MAX_ANSWER_CHARS,
        sources: shown.kept,
        sourceTotal: shown.total,
        queries: answer.queries,
        usage: answer.usage,
        model: clip(answer.model),
        presence: presenceOf(answer, job.site),
      };
    } catch (error) {
      if (error instanceof InvalidResponseError) return { kind: "invalid" };
      throw error;
    }
  }
  const parsed = body ?? null;
  return {
    kind: "error",
    class: provider.classify(job.status, parsed),
    code: clip(provider.errorCode(parsed)),
    retryDelayMs: provider.retryDelayMs?.(parsed) ?? null,
  };
}

/** The worker's entry point for "vendor-answer" jobs (lib/kit/isolate/protocol.ts ThreadJobModule). */
export const runJob: (job: VendorAnswerJob) => VendorReading = readVendorAnswer;

/** Longest model name or error code kept (a vendor's own words, in a stranger's reach). */
const MAX_LABEL_CHARS = 200;

function clip(value: string | null): string | null {
  return value === null ? null : value.slice(0, MAX_LABEL_CHARS);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
