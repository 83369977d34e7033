/**
 * GET /openapi.json: the OpenAPI 3.1 document of this service, generated from the same zod
 * schemas the handlers use (lib/openapi.ts), with this server as its server URL.
 */
import { Hono } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../lib/web/context.ts";
import { openApiDocument } from "../lib/openapi.ts";
import { mcpTools } from "../lib/mcp/server.ts";
import { ScanRequestSchema } from "../lib/scan/scan_request.ts";

/** The /openapi.json route. */
export function openApiRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const cache = new Map<string, string>();
  const toolNames = mcpTools(deps).map((t) => t.name);
  app.get("/", (c) => {
    const origin = siteOrigin(c, deps.config.trustProxy);
    let body = cache.get(origin);
    if (!body) {
      body = JSON.stringify(
        openApiDocument({
          service: deps.service,
          scanRequestSchema: ScanRequestSchema,
          serverUrl: origin,
          mcpToolNames: toolNames,
        }),
        null,
        2,
      );
      if (cache.size < 8) cache.set(origin, body);
    }
    c.header("Content-Type", "application/json; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    c.header("Access-Control-Allow-Origin", "*");
    return c.body(body);
  });
  return app;
}
