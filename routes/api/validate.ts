/**
 * POST /api/validate (schema service only): "validate code". The body is `{"html": "..."}` or
 * `{"jsonld": "..." | {...}}`, optionally with `"url"`; the answer is the same analysis a scan
 * gives (findings, eligibility, generated graph), computed without any fetch, in a scan thread.
 * The rate limit is decided before the body is read; bodies are capped (413), bad input is a 400
 * (lib/schema/validate_request.ts has the order of the steps).
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { readCappedBody } from "../../lib/web/http_body.ts";
import {
  MAX_VALIDATE_BODY,
  validateRequest,
  ValidateRequestSchema,
} from "../../lib/schema/validate_request.ts";

export { MAX_VALIDATE_BODY, ValidateRequestSchema };

/** The /api/validate routes (mounted by the schema service only). */
export function validateRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
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
  });
  return app;
}
