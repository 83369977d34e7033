/**
 * One validate-code request as the API, the /validate form and MCP serve it, in the order that
 * keeps each step protected by the one before:
 * 1. what the headers say (415 for another Content-Type, 413 for a declared length over the cap);
 * 2. the rate limit, decided before a byte of the body is read: the caller's address and its
 *    IPv6 /48 each have an hourly "validate" pool (429), apart from the scan pools;
 * 3. a turn among the validations in progress, fair per caller (lib/kit/limits/fair_gate.ts: a few
 *    at a time in all, one per caller, a short queue each; 429 past it);
 * 4. the body, read capped (413) within its deadline (408);
 * 5. the analysis in a scan thread with its heap and time limits (lib/features/validate/validate_job.ts):
 *    decoding, parsing, nesting and field checks (400), validation and the answer's JSON. The
 *    server's thread never parses the visitor's bytes.
 */
import {
  BadRequestError,
  HttpError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
} from "../../kit/errors.ts";
import { FairGate } from "../../kit/limits/fair_gate.ts";
import { rateLimitHeaders, validatePools } from "../../kit/limits/limits.ts";
import type { Store } from "../../kit/storage/store.ts";
import { ScanIsolationError, type ScanRunner, TOO_COMPLEX } from "../../kit/isolate/runner.ts";
import type { CodeInput } from "./validate_code.ts";
import { MAX_CODE_BYTES } from "./validate_code.ts";
import {
  type ValidateAnswer,
  type ValidateJob,
  ValidateRequestSchema,
  ValidateResponseSchema,
} from "./validate_job.ts";

export { ValidateRequestSchema, ValidateResponseSchema };

/** Largest JSON body: the code cap plus room for JSON escaping. */
export const MAX_VALIDATE_BODY = 2 * MAX_CODE_BYTES;
/** Largest form body: the code, URL-encoded (up to three bytes per byte), and the URL. */
export const MAX_VALIDATE_FORM = 3 * MAX_CODE_BYTES + 8192;

/** Validations analysed at once in all (each holds a scan thread while it runs). */
export const VALIDATE_CONCURRENCY = 2;
/** Validations one caller may have waiting beside the one running. */
export const VALIDATE_QUEUE_PER_CALLER = 2;
/** Time one validation may take in its thread. */
export const VALIDATE_TIMEOUT_MS = 20_000;

/** What a validate-code request needs. */
export interface ValidateDeps {
  store: Pick<Store, "limiter">;
  now: () => number;
  /**
   * Where validation runs: the server's workers (lib/app/server.ts sets it; an inline runner where
   * there are none: tests, Deno Deploy). The validate-code job module is never imported here.
   */
  threads?: Pick<ScanRunner, "runJob"> | null;
}

/**
 * Where the code comes from: a request's body (JSON or a form: its headers, and how to read it
 * capped, which the web edge knows), or fields already read (MCP).
 */
export type ValidateSource =
  | {
    as: "json" | "form";
    headers: Headers;
    /** Reads the body, at most `maxBytes` (413 past it), or null when there is none. */
    read: (maxBytes: number) => Promise<Uint8Array | null>;
  }
  | { input: CodeInput };

/** A validation's outcome: the answer's JSON and the RateLimit headers. */
export interface ValidateOutcome {
  /** `{"result": ...}` (plus `budget` when summarised), to send on or parse. */
  json: string;
  /** The form's fields as posted (the /validate page shows them again). */
  code?: string;
  url?: string;
  headers: Record<string, string>;
}

/** A 4xx of a validation, with the form's fields when they were read (the page shows them). */
export class ValidateInputError extends HttpError {
  override name = "ValidateInputError";
  constructor(status: number, message: string, readonly code?: string, readonly url?: string) {
    super(status, message);
  }
}

const gates = new WeakMap<object, FairGate>();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The fair queue of validations of one store (one per process and service). */
function gateOf(deps: ValidateDeps): FairGate {
  let gate = gates.get(deps.store);
  if (!gate) {
    gate = new FairGate({
      concurrency: VALIDATE_CONCURRENCY,
      perCaller: 1,
      maxQueued: VALIDATE_QUEUE_PER_CALLER,
      what: "code validations",
    });
    gates.set(deps.store, gate);
  }
  return gate;
}

/** Admits one validate-code request from `ip`, or throws 429; returns the RateLimit headers. */
export async function admitValidation(
  deps: ValidateDeps,
  ip: string,
): Promise<Record<string, string>> {
  const pools = validatePools(ip);
  const decision = await deps.store.limiter.admit(pools, deps.now(), crypto.randomUUID());
  if (decision.status === "admitted") {
    return rateLimitHeaders(pools[0], decision.used[0], pools[0].windowMs);
  }
  const retry = decision.status === "limited" ? Math.ceil(decision.retryAfterMs / 1000) : 5;
  const pool = decision.status === "limited" ? decision.pool : pools[0];
  throw new RateLimitedError(
    `Rate limit exceeded: at most ${pool.limit} code validations per hour from this ${
      pool.pool === "validate48" ? "IPv6 network (/48)" : "IP address"
    }. Retry in ${retry} seconds.`,
    retry,
  );
}

/**
 * What a scan thread that ended at its heap or time limit means for the visitor's code, said as
 * the input's doing: "<lead>: it is too large or too complex to <verb> (it needed more than ...)."
 */
export function tooComplex(error: ScanIsolationError, lead: string, verb: string): string {
  return `${lead}: ${
    error.message.replace(TOO_COMPLEX, `it is too large or too complex to ${verb}`)
  }.`;
}

/** Validates code from `ip` (see the module comment for the order of the steps). */
export async function validateRequest(
  deps: ValidateDeps,
  ip: string,
  source: ValidateSource,
): Promise<ValidateOutcome> {
  const maxBytes = "as" in source && source.as === "form" ? MAX_VALIDATE_FORM : MAX_VALIDATE_BODY;
  if ("as" in source) checkHeaders(source.headers, source.as, maxBytes);
  const headers = await admitValidation(deps, ip);
  const answer = await gateOf(deps).run(ip, async () => {
    let job: ValidateJob;
    if ("as" in source) {
      const body = await source.read(maxBytes);
      if (!body && source.as === "json") {
        throw new BadRequestError("Request body is empty; send a JSON object");
      }
      // Decoded here (a native, linear step that parses nothing): a thread gets text fast.
      let text: string;
      try {
        text = body ? strictUtf8.decode(body) : "";
      } catch {
        throw new BadRequestError("Request body is not valid UTF-8");
      }
      job = { kind: "validate-code", body: text, as: source.as };
    } else {
      job = { kind: "validate-code", input: source.input };
    }
    if (!deps.threads) throw new Error("no runner for validations (lib/app/server.ts sets it)");
    try {
      return await deps.threads.runJob(job, VALIDATE_TIMEOUT_MS) as ValidateAnswer;
    } catch (error) {
      // The code took its thread past its heap or time limit: the input's doing, said as such.
      if (error instanceof ScanIsolationError) {
        return {
          status: 422,
          error: tooComplex(error, "The code could not be validated", "analyse"),
        };
      }
      throw error;
    }
  });
  if (answer.status !== 200 || answer.json === undefined) {
    throw new ValidateInputError(
      answer.status,
      answer.error ?? "The code could not be validated.",
      answer.code,
      answer.url,
    );
  }
  return { json: answer.json, code: answer.code, url: answer.url, headers };
}

/** 415 and 413 from the headers alone, before anything is counted or read. */
function checkHeaders(headers: Headers, as: "json" | "form", maxBytes: number): void {
  const type = headers.get("content-type") ?? "";
  if (as === "json" && !/^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new UnsupportedMediaTypeError();
  }
  if (as === "form" && !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new UnsupportedMediaTypeError(
      "Content-Type must be application/x-www-form-urlencoded (an HTML form post)",
    );
  }
  const declared = Number(headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
}
