/**
 * One validate-code request as the API and MCP serve it: input checked first (400/413 before
 * anything is counted), then admitted into the caller IP's own "validate" pool (429 when full;
 * the scan pools are never touched), then analysed offline.
 */
import { BadRequestError, PayloadTooLargeError, RateLimitedError } from "../errors.ts";
import { rateLimitHeaders, validatePool } from "../limits/limits.ts";
import type { Store } from "../storage/store.ts";
import { z } from "zod";
import { type Result, ResultSchema } from "../structured/record.ts";
import {
  type CodeInput,
  CodeInputError,
  codeToHtml,
  codeUrl,
  MAX_CODE_BYTES,
  validateCode,
} from "./validate_code.ts";

/** The body of POST /api/validate (and the input of MCP validate_code). */
export const ValidateRequestSchema = z.object({
  html: z.string({ error: "html must be a string" }).optional(),
  jsonld: z.union([z.string(), z.record(z.string(), z.json()), z.array(z.json())], {
    error: "jsonld must be a string, an object or an array",
  }).optional(),
  url: z.string({ error: "url must be a string" }).max(2048, "url is longer than 2048 characters")
    .optional(),
}).strict();

/** The 200 body of POST /api/validate. */
export const ValidateResponseSchema = z.object({
  status: z.literal("ok"),
  validatedAt: z.iso.datetime(),
  /** The same result a scan record carries (page.fetchMs is 0: nothing was fetched). */
  result: ResultSchema,
});

/** What a validate-code request needs. */
export interface ValidateDeps {
  store: Pick<Store, "limiter">;
  now: () => number;
}

/** Admits one validate-code request from `ip`, or throws 429; returns the RateLimit headers. */
export async function admitValidation(
  deps: ValidateDeps,
  ip: string,
): Promise<Record<string, string>> {
  const pool = validatePool(ip);
  const now = deps.now();
  const decision = await deps.store.limiter.admit([pool], now, crypto.randomUUID());
  if (decision.status === "admitted") {
    return rateLimitHeaders(pool, decision.used[0], pool.windowMs);
  }
  const retry = decision.status === "limited" ? Math.ceil(decision.retryAfterMs / 1000) : 5;
  throw new RateLimitedError(
    `Rate limit exceeded: at most ${pool.limit} code validations per hour from this IP address. Retry in ${retry} seconds.`,
    retry,
  );
}

/** Maps input errors of validate code to 400/413 (others pass through). */
function inputErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CodeInputError) {
      if (e.tooLarge) throw new PayloadTooLargeError(MAX_CODE_BYTES);
      throw new BadRequestError(e.message);
    }
    throw e;
  }
}

/** Checks the input (400/413 before anything is counted), admits it, then analyses it. */
export async function validateRequest(
  deps: ValidateDeps,
  ip: string,
  input: CodeInput,
): Promise<{ result: Result; headers: Record<string, string> }> {
  inputErrors(() => {
    codeToHtml(input);
    codeUrl(input.url);
  });
  const headers = await admitValidation(deps, ip);
  return { result: inputErrors(() => validateCode(input)), headers };
}
