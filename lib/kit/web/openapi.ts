/**
 * The OpenAPI 3.1 document of the running service (GET /openapi.json), generated from the routes
 * the app mounted: each route module writes its own operations (lib/kit/web/route.ts RouteDef openapi)
 * next to its handlers, keyed by the path it is mounted on, and names the zod schemas its handlers
 * use; those and the service's record schema go through `z.toJSONSchema` (JSON Schema 2020-12,
 * OpenAPI 3.1's own dialect), so the document cannot drift from the code. Error bodies are
 * described by the zod schemas below, which the tests check against real error responses.
 */
import { z } from "zod";
import { PRODUCT } from "../config.ts";
import { LIMITS } from "../limits/limits.ts";
import type { AppDeps } from "./context.ts";
import type { OpenApiContext, RouteDef } from "./route.ts";

/** `{ "error": string }`: every error response (lib/kit/errors.ts). */
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
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** A JSON body described by the component schema `ref`. */
export function json(ref: string): Record<string, unknown> {
  return { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } };
}

/** An error response: `{ "error": string }` (lib/kit/errors.ts). */
export function errorResponse(description: string): Record<string, unknown> {
  return { description, content: json("Error") };
}

/** The `{domain}` path parameter. */
export const DOMAIN_PARAMETER = {
  name: "domain",
  in: "path",
  required: true,
  description: "The domain, e.g. example.com.",
  schema: { type: "string" },
} as const;

/** The OpenAPI 3.1 document of the routes an app mounted, with `serverUrl` as its server. */
export function openApiDocument(options: {
  /** The routes the app mounted for its service (lib/app/routes.ts ROUTES, filtered). */
  routes: readonly RouteDef[];
  deps: AppDeps;
  serverUrl: string;
}): Record<string, unknown> {
  const { deps } = options;
  const { service } = deps;
  const ctx: OpenApiContext = { deps };
  const paths: Record<string, Record<string, unknown>> = {};
  const routeSchemas: Record<string, Record<string, unknown>> = {};
  for (const route of options.routes) {
    if (!route.openapi) continue;
    paths[route.path] = { ...paths[route.path], ...route.openapi(ctx) };
    for (const [name, s] of Object.entries(route.schemas?.(ctx) ?? {})) {
      routeSchemas[name] = "json" in s ? s.json : jsonSchema(s.schema, s.io);
    }
  }
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
    paths,
    components: {
      schemas: {
        ScanRecord: jsonSchema(service.recordSchema, "output"),
        Error: jsonSchema(ErrorBodySchema, "output"),
        RateLimited: jsonSchema(RateLimitedBodySchema, "output"),
        ...routeSchemas,
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

/** The RateLimit headers of an answer to a scan or a validation. */
export function rateLimitHeaders(): Record<string, unknown> {
  const h = (description: string) => ({ description, schema: { type: "integer" } });
  return {
    "RateLimit-Limit": h("New scans allowed per hour in the caller's own pool."),
    "RateLimit-Remaining": h("New scans left in the current window."),
    "RateLimit-Reset": h("Seconds until the oldest scan leaves the window."),
  };
}
