/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, for AI agents. No credentials (the
 * spec says so); callers count as anonymous by IP. Stateless: every POST gets a new McpServer and
 * a new SDK transport answering with plain JSON (no SSE stream, no session), so any process of a
 * deployment can answer any request. GET and DELETE (a session's stream and end) are 405.
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import type { AppEnv } from "../lib/app.ts";
import type { McpDeps, McpOptions } from "../lib/mcp/context.ts";
import { methodNotAllowed, readJsonRpcBody } from "../lib/mcp/http.ts";
import { createMcpServer } from "../lib/mcp/server.ts";

/** Largest accepted body: a tool call is a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

/** The /mcp routes (AppDeps fits: the MCP server needs only the scan flow's part of it). */
export function mcpRoutes(deps: McpDeps, options: McpOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    // Read and check the body ourselves first, so a malformed request gets the protocol's error
    // code (-32700 / -32600) with a 4xx and the body size is capped before anything is parsed.
    const message = await readJsonRpcBody(c.req.raw, MAX_MCP_BODY);
    const server = createMcpServer(deps, { ip: c.get("clientIp") }, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // No hook on the client going away: Deno's request.signal also fires after successful
    // responses (legacy behaviour, with a warning), and scan_site's wait is bounded anyway.
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(c.req.raw, { parsedBody: message });
      response.headers.set("Cache-Control", "no-store");
      return response;
    } finally {
      // The JSON response is complete once handleRequest resolves; nothing outlives the request.
      await server.close();
    }
  });
  app.all("/", () => {
    throw methodNotAllowed();
  });
  return app;
}
