/**
 * POST /api/validate (schema service only): "validate code". The body is `{"html": "..."}` or
 * `{"jsonld": "..." | {...}}`, optionally with `"url"`; the answer is the same analysis a scan
 * gives (findings, eligibility, generated graph), computed without any fetch. Bodies are capped
 * (413), bad input is a 400, and each client IP has its own hourly pool ("validate", see
 * lib/limits/limits.ts), separate from the scan pools.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { readJsonBody, zodMessage } from "../../lib/web/http_body.ts";
import { MAX_CODE_BYTES } from "../../lib/schema/validate_code.ts";
import { validateRequest, ValidateRequestSchema } from "../../lib/schema/validate_request.ts";

export { ValidateRequestSchema };

/** Largest accepted body: the code cap plus room for JSON escaping. */
export const MAX_VALIDATE_BODY = 2 * MAX_CODE_BYTES;

/** The /api/validate routes (mounted by the schema service only). */
export function validateRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    const raw = await readJsonBody(c.req.raw, MAX_VALIDATE_BODY);
    const parsed = ValidateRequestSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
    const { result, headers } = await validateRequest(deps, c.get("clientIp"), parsed.data);
    return c.json({ status: "ok", validatedAt: new Date(deps.now()).toISOString(), result }, 200, {
      ...headers,
      "Cache-Control": "no-store",
    });
  });
  return app;
}
