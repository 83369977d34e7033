/**
 * The OpenAPI 3.1 document of the running service (GET /openapi.json), generated from the zod
 * schemas the handlers use: the request body schema of POST /api/scan and the service's record
 * schema go through `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's own dialect), so the
 * document cannot drift from the code. Error bodies are described by the zod schemas below, which
 * the tests check against real error responses.
 */
import { z } from "zod";
import { PRODUCT } from "./config.ts";
import { LIMITS, VALIDATE_LIMIT } from "./limits/limits.ts";
import { MAX_CODE_BYTES } from "./schema/validate_code.ts";
import { ValidateRequestSchema, ValidateResponseSchema } from "./schema/validate_request.ts";
import type { ServiceDef } from "./service.ts";
import { historyPaths, historySchemas } from "./openapi_history.ts";
import { watchPaths, watchSchemas } from "./openapi_watch.ts";
import { answerPaths, answerSchemas } from "./openapi_answers.ts";
import { COMPARE_MAX_SITES, ComparisonSchema } from "./compare/compare.ts";

/** `{ "error": string }`: every error response (lib/errors.ts). */
export const ErrorBodySchema = z.object({
  error: z.string().describe("What went wrong, in a sentence."),
});

/** The 429 body: the error and how long to wait. */
export const RateLimitedBodySchema = z.object({
  error: z.string(),
  retryAfterSeconds: z.number().int().positive()
    .describe("Seconds to wait before a new scan will be admitted."),
});

/** The 202 body: the scan started (or was already running) in the background. */
export const ScanAcceptedSchema = z.object({
  domain: z.string().describe("The domain the record will be stored under; poll its report."),
  scanId: z.string().describe(
    "The scan's id: the one started, or the one already running that this request joined.",
  ),
  statusUrl: z.string().describe(
    "GET it to follow this scan to its end (queued, running, done, failed): /api/scans/{id}.",
  ),
});

/** A JSON schema for the document's components (no `$schema` key: OpenAPI 3.1 sets the dialect). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const json = (ref: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${ref}` } },
});
const errorResponse = (description: string) => ({ description, content: json("Error") });

/** The OpenAPI 3.1 document for a service, with `serverUrl` as its server. */
export function openApiDocument(options: {
  service: ServiceDef;
  /** The zod schema of POST /api/scan's body (routes/api/scan.ts). */
  scanRequestSchema: z.ZodType;
  serverUrl: string;
  /** The names of the tools /mcp serves (lib/mcp/server.ts mcpTools). */
  mcpToolNames: string[];
}): Record<string, unknown> {
  const { service } = options;
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: `${service.title} API`,
      version: PRODUCT.version,
      summary: `The ${service.title} ${service.summary ?? "scans web sites"}.`,
      description: `Start a scan with POST /api/scan, then poll the statusUrl of its 202 ` +
        `(GET /api/scans/{id}) every 1-2 seconds until its status is done or failed, and read ` +
        `the record it links (GET /api/report/{domain}.json serves the latest). A record younger than 24 hours is served from ` +
        `cache and uses no limit. New scans are limited to ${LIMITS.ip} per hour per IP ` +
        `(anonymous, browser and PIPELINE_TOKEN callers), ${LIMITS.domain} per hour per domain, ` +
        `and ${LIMITS.key} per hour per API key. See /docs for examples.`,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: "scans", description: "Start scans and read reports." },
      { name: "mcp", description: "The Model Context Protocol endpoint for AI agents." },
      { name: "watches", description: "Scheduled rescans and regression alerts of an account." },
      { name: "answers", description: "Answer presence: do AI assistants name and cite the site?" },
    ],
    paths: {
      "/api/scan": {
        post: {
          tags: ["scans"],
          operationId: "scan",
          summary: "Start a scan, or get the cached record",
          description: "Scripts send an API key (`Authorization: Bearer " +
            `${service.keyPrefix}...\`, free at /account/signup) or the site owner's ` +
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
      },
      "/api/report/{domain}.json": {
        get: {
          tags: ["scans"],
          operationId: "getReport",
          summary: "The stored record of a domain",
          description: "No credentials. Answers with an ETag; send If-None-Match when polling.",
          security: [{}],
          parameters: [{
            name: "domain",
            in: "path",
            required: true,
            description: "The domain, e.g. example.com.",
            schema: { type: "string" },
          }, {
            name: "download",
            in: "query",
            required: false,
            description: "Present (`?download=1`): the same body with a Content-Disposition " +
              "attachment header, so a browser saves it as a file (the report page's Download JSON).",
            schema: { type: "string" },
          }],
          responses: {
            "200": {
              description: "The stored record.",
              headers: {
                ETag: { schema: { type: "string" } },
                "Content-Disposition": {
                  description: 'With ?download: `attachment; filename="example.com-...json"`.',
                  schema: { type: "string" },
                },
              },
              content: json("ScanRecord"),
            },
            "304": { description: "Unchanged since the ETag sent in If-None-Match." },
            "400": errorResponse("Not a domain name."),
            "404": errorResponse('Never scanned: `{"error":"Not found"}`.'),
          },
        },
      },
      "/mcp": {
        post: {
          tags: ["mcp"],
          operationId: "mcp",
          summary: "Model Context Protocol (Streamable HTTP, stateless, JSON responses)",
          description: "JSON-RPC 2.0 messages of the Model Context Protocol. No credentials; " +
            "callers count as anonymous by IP. Tools: " + options.mcpToolNames.join(", ") + ".",
          security: [{}],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["jsonrpc", "method"],
                  properties: {
                    jsonrpc: { const: "2.0" },
                    id: { type: ["string", "integer"] },
                    method: { type: "string" },
                    params: { type: "object" },
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "The JSON-RPC response.",
              content: { "application/json": { schema: { type: "object" } } },
            },
            "202": { description: "A notification was accepted." },
            "400": { description: "Not a JSON-RPC message." },
          },
        },
      },
      ...historyPaths(),
      ...watchPaths(),
      ...answerPaths(),
      "/api/report/{domain}.md": exportPath("md"),
      "/api/report/{domain}.html": exportPath("html"),
      ...(service.comparesSites ? { "/api/compare.json": comparePath() } : {}),
      ...(service.validatesCode ? { "/api/validate": validatePath() } : {}),
      "/badge/{domain}.svg": {
        get: {
          tags: ["scans"],
          operationId: "getBadge",
          summary: "An SVG badge of the domain's latest result",
          security: [{}],
          parameters: [{
            name: "domain",
            in: "path",
            required: true,
            schema: { type: "string" },
          }],
          responses: {
            "200": {
              description: "The badge.",
              content: { "image/svg+xml": { schema: { type: "string" } } },
            },
            "404": {
              description: 'A "not scanned" badge.',
              content: { "image/svg+xml": { schema: { type: "string" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        ScanRequest: jsonSchema(options.scanRequestSchema, "input"),
        ScanRecord: jsonSchema(service.recordSchema, "output"),
        ScanAccepted: jsonSchema(ScanAcceptedSchema, "output"),
        Error: jsonSchema(ErrorBodySchema, "output"),
        RateLimited: jsonSchema(RateLimitedBodySchema, "output"),
        ...historySchemas(jsonSchema),
        ...watchSchemas(jsonSchema),
        ...answerSchemas(jsonSchema),
        ...(service.comparesSites ? { Comparison: jsonSchema(ComparisonSchema, "output") } : {}),
        ...(service.validatesCode
          ? {
            ValidateRequest: jsonSchema(ValidateRequestSchema, "input"),
            ValidateResponse: jsonSchema(ValidateResponseSchema, "output"),
          }
          : {}),
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: `A client API key (starts with "${service.keyPrefix}") or the ` +
            "PIPELINE_TOKEN.",
        },
      },
    },
  };
}

/** POST /api/validate (schema service): validate pasted code, nothing fetched. */
function validatePath(): Record<string, unknown> {
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

/** GET /api/report/{domain}.md or .html: the stored record as a downloadable report. */
function exportPath(format: "md" | "html"): Record<string, unknown> {
  const md = format === "md";
  return {
    get: {
      tags: ["scans"],
      operationId: md ? "getReportMarkdown" : "getReportHtml",
      summary: md
        ? "The stored record as a Markdown report"
        : "The stored record as a self-contained HTML report",
      description:
        (md
          ? "GitHub-flavoured Markdown: headings, tables, fenced code to paste. "
          : "One file with its styles inlined, no script, nothing loaded; prints well. ") +
        "Served as an attachment with a file name (`example.com-ai-visibility-2026-11-21-0900." +
        `${format}\`). Text from the scanned page is escaped. No credentials.`,
      security: [{}],
      parameters: [{
        name: "domain",
        in: "path",
        required: true,
        description: "The domain, e.g. example.com.",
        schema: { type: "string" },
      }],
      responses: {
        "200": {
          description: "The report.",
          headers: {
            "Content-Disposition": {
              description: "`attachment; filename=...`",
              schema: { type: "string" },
            },
          },
          content: {
            [md ? "text/markdown" : "text/html"]: { schema: { type: "string" } },
          },
        },
        "400": errorResponse("Not a domain name."),
        "404": errorResponse('Never scanned: `{"error":"Not found"}`.'),
      },
    },
  };
}

/** GET /api/compare.json (services that compare sites): stored records side by side. */
function comparePath(): Record<string, unknown> {
  return {
    get: {
      tags: ["scans"],
      operationId: "compareSites",
      summary: `The latest stored records of up to ${COMPARE_MAX_SITES} sites, side by side`,
      description: "Score and grade, each pillar's score per site, and each issue with the sites " +
        "that have it and those that do not. Reads stored records only: it starts no scan, and " +
        'a site never scanned is listed with status "not_scanned". No credentials.',
      security: [{}],
      parameters: [{
        name: "d",
        in: "query",
        required: true,
        description: `A domain or URL; repeat it (or separate with commas) for up to ` +
          `${COMPARE_MAX_SITES} sites.`,
        style: "form",
        explode: true,
        schema: { type: "array", items: { type: "string" }, minItems: 1 },
      }],
      responses: {
        "200": { description: "The comparison.", content: json("Comparison") },
        "400": errorResponse(
          `No site, more than ${COMPARE_MAX_SITES} sites, or one that is not a domain name.`,
        ),
      },
    },
  };
}

function rateLimitHeaders(): Record<string, unknown> {
  const h = (description: string) => ({ description, schema: { type: "integer" } });
  return {
    "RateLimit-Limit": h("New scans allowed per hour in the caller's own pool."),
    "RateLimit-Remaining": h("New scans left in the current window."),
    "RateLimit-Reset": h("Seconds until the oldest scan leaves the window."),
  };
}
