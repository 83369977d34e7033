/**
 * POST /api/validate (schema service only): "validate code". The body is `{"html": "..."}` or
 * `{"jsonld": "..." | {...}}`, optionally with `"url"`; the answer is the same analysis a scan
 * gives (findings, eligibility, generated graph), computed without any fetch. Bodies are capped
 * (413), bad input is a 400, and each client IP has its own hourly pool ("validate", see
 * lib/limits/limits.ts), separate from the scan pools.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import type { RouteDef } from "../../lib/web/route.ts";
import { errorResponse, json, rateLimitHeaders } from "../../lib/openapi.ts";
import { VALIDATE_LIMIT } from "../../lib/limits/limits.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { readJsonBody, zodMessage } from "../../lib/web/http_body.ts";
import { MAX_CODE_BYTES } from "../../lib/schema/validate_code.ts";
import {
  validateRequest,
  ValidateRequestSchema,
  ValidateResponseSchema,
} from "../../lib/schema/validate_request.ts";

export { ValidateRequestSchema };

/** Largest accepted body: the code cap plus room for JSON escaping. */
export const MAX_VALIDATE_BODY = 2 * MAX_CODE_BYTES;

/** POST /api/validate (mounted by the services that validate code in hand). */
export const validateRoute: RouteDef = {
  path: "/api/validate",
  servedBy: (service) => service.validatesCode === true,
  handlers: (deps) => ({ POST: (c) => validateCode(c, deps) }),
  schemas: () => ({
    ValidateRequest: { schema: ValidateRequestSchema, io: "input" },
    ValidateResponse: { schema: ValidateResponseSchema, io: "output" },
  }),
  openapi: () => validateOperation(),
};

async function validateCode(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  // (A block: the handler's lines stay as they were in its Hono sub-app, which eases merges.)
  {
    const raw = await readJsonBody(c.req.raw, MAX_VALIDATE_BODY);
    const parsed = ValidateRequestSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
    const { result, headers } = await validateRequest(deps, c.get("clientIp"), parsed.data);
    return c.json({ status: "ok", validatedAt: new Date(deps.now()).toISOString(), result }, 200, {
      ...headers,
      "Cache-Control": "no-store",
    });
  }
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
        `bytes of code; ${VALIDATE_LIMIT} requests per hour per client IP, in a pool of its own ` +
        "(it never uses up the scan limits). No credentials.",
      security: [{}],
      requestBody: { required: true, content: json("ValidateRequest") },
      responses: {
        "200": {
          description: "The analysis.",
          headers: rateLimitHeaders(),
          content: json("ValidateResponse"),
        },
        "400": errorResponse("Not exactly one of html/jsonld, empty code, or a bad url."),
        "413": errorResponse("The code or the body is too large."),
        "415": errorResponse("The body is not JSON."),
        "429": {
          description: "The IP's validation pool is full; see Retry-After.",
          content: json("RateLimited"),
        },
      },
    },
  };
}
