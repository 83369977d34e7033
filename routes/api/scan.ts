/** POST /api/scan: validate, authenticate, then the shared scan flow (lib/scan_service.ts). */
import { Hono } from "hono";
import { z } from "zod";
import { allowOnly, type AppDeps, type AppEnv } from "../../lib/app.ts";
import { authenticate } from "../../lib/auth.ts";
import { MAX_TOKEN_LENGTH } from "../../lib/challenge.ts";
import { InvalidTargetError, normaliseTarget } from "../../lib/domain.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { readJsonBody, zodMessage } from "../../lib/http_body.ts";
import { touchKey } from "../../lib/keys.ts";
import { requestScan } from "../../lib/scan_service.ts";
import { SECURITY_HEADERS } from "../../lib/security_headers.ts";

/** The request body, as the spec defines it. */
export const ScanRequestSchema = z.object({
  url: z.string({
    error: (i) => i.input === undefined ? "url is required" : "url must be a string",
  })
    .trim().min(1, "url must not be empty").max(2048, "url is longer than 2048 characters"),
  forceRescan: z.boolean({ error: "forceRescan must be true or false" }).optional(),
  turnstileToken: z.string({ error: "turnstileToken must be a string" })
    .max(MAX_TOKEN_LENGTH, "turnstileToken is too long").optional(),
});

/** Largest accepted body. */
export const MAX_SCAN_BODY = 16 * 1024;

/** The /api/scan routes. */
export function scanRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    const raw = await readJsonBody(c.req.raw, MAX_SCAN_BODY);
    const parsed = ScanRequestSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
    let target;
    try {
      target = normaliseTarget(parsed.data.url);
    } catch (e) {
      if (e instanceof InvalidTargetError) throw new BadRequestError(e.message);
      throw e;
    }
    const caller = await authenticate({
      authorization: c.req.header("authorization"),
      turnstileToken: parsed.data.turnstileToken,
      ip: c.get("clientIp"),
    }, {
      store: deps.store,
      keyPrefix: deps.service.keyPrefix,
      pipelineToken: deps.config.pipelineToken,
      verifyChallenge: deps.challenge.verify,
    });
    if (caller.kind === "key") await touchKey(deps.store, caller.key, deps.now());
    const outcome = await requestScan(target, caller, {
      forceRescan: parsed.data.forceRescan ?? false,
    }, deps);
    if (outcome.status === 200) {
      // The hottest answer of this route, built in one go (each header set one by one costs).
      return new Response(outcome.body, {
        status: 200,
        headers: [
          ...Object.entries(outcome.headers),
          ["Cache-Control", "no-store"],
          ["Content-Type", "application/json"],
          ...SECURITY_HEADERS,
        ],
      });
    }
    for (const [k, v] of Object.entries(outcome.headers)) c.header(k, v);
    c.header("Cache-Control", "no-store");
    c.header("Location", `/api/report/${outcome.domain}.json`);
    return c.json({ domain: outcome.domain }, 202);
  });
  allowOnly(app, "/", ["POST"]);
  return app;
}
