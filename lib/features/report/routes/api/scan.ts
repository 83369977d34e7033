/** POST /api/scan: validate, authenticate, then the shared scan flow (lib/engines/scan/scan_service.ts). */
import type { AppDeps } from "../../../../kit/web/context.ts";
import type { RouteDef } from "../../../../kit/web/route.ts";
import {
  errorResponse,
  json,
  rateLimitHeaders,
  ScanAcceptedSchema,
} from "../../../../kit/web/openapi.ts";
import { authenticate } from "../../../../kit/auth/auth.ts";
import { InvalidTargetError, normaliseTarget } from "../../../../kit/net/target.ts";
import { BadRequestError } from "../../../../kit/errors.ts";
import { readJsonBody, zodMessage } from "../../../../kit/web/http_body.ts";
import { touchKey } from "../../../../kit/auth/keys.ts";
import { MAX_SCAN_BODY, ScanRequestSchema } from "../../../../engines/scan/scan_request.ts";
import { requestScan } from "../../../../engines/scan/scan_service.ts";
import { SECURITY_HEADERS } from "../../../../kit/web/security_headers.ts";
import { PATHS, reportJsonPath, scanStatusPath } from "../../../../kit/report_urls.ts";

/**
 * POST /api/scan as a plain function of the request: the Hono route calls it, and so does the
 * server's fast path (lib/app/app.ts createHandler), which skips routing for this hot endpoint.
 * @throws HttpError subclasses, mapped to JSON errors by lib/app/app.ts.
 */
export async function scanPost(req: Request, clientIp: string, deps: AppDeps): Promise<Response> {
  const raw = await readJsonBody(req, MAX_SCAN_BODY);
  const parsed = ScanRequestSchema.safeParse(raw);
  if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
  let target;
  try {
    target = {
      ...normaliseTarget(parsed.data.url),
      // Absent: the service decides (the schema service renders where it can); false opts out.
      ...(parsed.data.render !== undefined ? { render: parsed.data.render } : {}),
    };
  } catch (e) {
    if (e instanceof InvalidTargetError) throw new BadRequestError(e.message);
    throw e;
  }
  const caller = await authenticate({
    authorization: req.headers.get("authorization"),
    turnstileToken: parsed.data.turnstileToken,
    ip: clientIp,
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
  // Built in one go, security headers included (setting headers one by one costs on this path).
  const headers: [string, string][] = [
    ...Object.entries(outcome.headers),
    ["Cache-Control", "no-store"],
    ["Content-Type", "application/json"],
    ...SECURITY_HEADERS,
  ];
  if (outcome.status === 200) return new Response(outcome.body, { status: 200, headers });
  headers.push(["Location", reportJsonPath(outcome.domain)]);
  // Additive to the spec's { domain }: the scan's id and where to follow it (lib/kit/storage/history.ts).
  return new Response(
    JSON.stringify({
      domain: outcome.domain,
      scanId: outcome.scanId,
      statusUrl: scanStatusPath(outcome.scanId),
    }),
    { status: 202, headers },
  );
}

export { MAX_SCAN_BODY, ScanRequestSchema };

/** POST /api/scan. */
export const scanRoute: RouteDef = {
  path: PATHS.scan,
  handlers: (deps) => ({ POST: (c) => scanPost(c.req.raw, c.get("clientIp"), deps) }),
  schemas: () => ({
    ScanRequest: { schema: ScanRequestSchema, io: "input" },
    ScanAccepted: { schema: ScanAcceptedSchema, io: "output" },
  }),
  openapi: ({ deps }) => ({
    post: {
      tags: ["scans"],
      operationId: "scan",
      summary: "Start a scan, or get the cached record",
      description: "Scripts send an API key (`Authorization: Bearer " +
        `${deps.service.keyPrefix}...\`, free at /account/signup) or the site owner's ` +
        "PIPELINE_TOKEN. Without an Authorization header, the body must carry a valid " +
        "`turnstileToken` from the browser challenge of the public form, else 403.",
      security: [{}, { bearerAuth: [] }],
      requestBody: { required: true, content: json("ScanRequest") },
      responses: {
        "200": {
          description: "A record younger than 24 hours (no limit used).",
          headers: rateLimitHeaders(),
          content: json("ScanRecord"),
        },
        "202": {
          description: "The scan runs in the background: follow its statusUrl.",
          headers: {
            Location: {
              description: "The report to poll.",
              schema: { type: "string" },
            },
            ...rateLimitHeaders(),
          },
          content: json("ScanAccepted"),
        },
        "400": errorResponse("Malformed body, or a URL that is not a public domain."),
        "401": errorResponse('The bearer token is not accepted: `{"error":"Unauthorized"}`.'),
        "403": errorResponse(
          'No Authorization header and no valid challenge token: `{"error":"Verification failed. Please retry."}`.',
        ),
        "413": errorResponse("The body is larger than 16 KiB."),
        "415": errorResponse("The body is not JSON."),
        "429": {
          description: "A limit is reached; wait retryAfterSeconds.",
          headers: {
            "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } },
          },
          content: json("RateLimited"),
        },
      },
    },
  }),
};
