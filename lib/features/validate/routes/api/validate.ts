/**
 * POST /api/validate (schema service only): "validate code". The body is `{"html": "..."}` or
 * `{"jsonld": "..." | {...}}`, optionally with `"url"`; the answer is the same analysis a scan
 * gives (findings, eligibility, generated graph), computed without any fetch, in a scan thread.
 * The rate limit is decided before the body is read; bodies are capped (413), bad input is a 400
 * (lib/features/validate/validate_request.ts has the order of the steps).
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import type { RouteDef } from "../../../../kit/web/route.ts";
import { errorResponse, json, rateLimitHeaders } from "../../../../kit/web/openapi.ts";
import { VALIDATE_LIMIT, VALIDATE_LIMIT_PER_48 } from "../../../../kit/limits/limits.ts";
import { readCappedBody } from "../../../../kit/web/http_body.ts";
import { MAX_CODE_BYTES } from "../../validate_code.ts";
import { MAX_JSON_DEPTH } from "../../validate_job.ts";
import {
  MAX_VALIDATE_BODY,
  validateRequest,
  ValidateRequestSchema,
  ValidateResponseSchema,
} from "../../validate_request.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

export { MAX_VALIDATE_BODY, ValidateRequestSchema };

/** POST /api/validate (mounted by the services that validate code in hand). */
export const validateRoute: RouteDef = {
  path: PATHS.validateApi,
  servedBy: (service) => service.validatesCode === true,
  handlers: (deps) => ({ POST: (c) => validateCode(c, deps) }),
  schemas: () => ({
    ValidateRequest: { schema: ValidateRequestSchema, io: "input" },
    ValidateResponse: { schema: ValidateResponseSchema, io: "output" },
  }),
  openapi: () => validateOperation(),
};

async function validateCode(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const request = c.req.raw;
  const { json, headers } = await validateRequest(deps, c.get("clientIp"), {
    as: "json",
    headers: request.headers,
    read: (max) => readCappedBody(request, max),
  });
  // The thread wrote the result's JSON: it is sent on as it is, never parsed here.
  const validatedAt = JSON.stringify(new Date(deps.now()).toISOString());
  return new Response(`{"status":"ok","validatedAt":${validatedAt},${json.slice(1)}`, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
    },
  });
}

/** The OpenAPI operation of POST /api/validate: validate pasted code, nothing fetched. */
function validateOperation(): Record<string, unknown> {
  return {
    post: {
      tags: ["scans"],
      operationId: "validateCode",
      summary: "Validate pasted HTML or JSON-LD (no fetch)",
      description: "Like the Rich Results Test's Code tab: send `html` (a page or a fragment) or " +
        "`jsonld` (text, an object or an array), optionally with the `url` the code stands for. " +
        "The answer is the analysis a scan of a page with that code gives: items, findings, " +
        `rich-result eligibility per item and feature, generated JSON-LD. At most ${MAX_CODE_BYTES} ` +
        `bytes of code, nested at most ${MAX_JSON_DEPTH} levels; ${VALIDATE_LIMIT} requests per ` +
        `hour per client IP and ${VALIDATE_LIMIT_PER_48} per IPv6 /48, in pools of their own (they ` +
        "never use up the scan limits), decided before the body is read. The code is analysed " +
        "in a scan thread with its own heap and time limits; an answer over twice the input's " +
        "size plus 64 KiB is summarised and says so (`budget`). No credentials.",
      security: [{}],
      requestBody: { required: true, content: json("ValidateRequest") },
      responses: {
        "200": {
          description: "The analysis.",
          headers: rateLimitHeaders(),
          content: json("ValidateResponse"),
        },
        "400": errorResponse(
          "Not exactly one of html/jsonld, empty code, a bad url, or JSON nested too deeply.",
        ),
        "413": errorResponse("The code or the body is too large."),
        "415": errorResponse("The body is not JSON."),
        "422": errorResponse(
          "The code took its thread past its heap or time limit (too large or complex to analyse).",
        ),
        "429": {
          description: "The IP's (or its /48's) validation pool is full, or too many of its " +
            "validations are already waiting; see Retry-After.",
          content: json("RateLimited"),
        },
      },
    },
  };
}
