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
import {
  DEFAULT_MCP_CONCURRENT_PER_IP,
  type McpDeps,
  type McpOptions,
} from "../lib/mcp/context.ts";
import { JSONRPC, JsonRpcHttpError, methodNotAllowed, readJsonRpcBody } from "../lib/mcp/http.ts";
import { createMcpServer } from "../lib/mcp/server.ts";

/** Largest accepted body: a tool call is a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

/** The /mcp routes (AppDeps fits: the MCP server needs only the scan flow's part of it). */
export function mcpRoutes(deps: McpDeps, options: McpOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Requests in progress per client IP: scan_site may hold one for up to scanWaitMs, so without a
  // cap one address could hold any number of them open.
  const inProgress = new Map<string, number>();
  const maxPerIp = options.maxConcurrentPerIp ?? DEFAULT_MCP_CONCURRENT_PER_IP;
  app.post("/", async (c) => {
    const ip = c.get("clientIp");
    const running = inProgress.get(ip) ?? 0;
    if (running >= maxPerIp) {
      throw new JsonRpcHttpError(
        429,
        JSONRPC.serverError,
        `Too many requests in progress from your address (at most ${maxPerIp} at once); ` +
          "retry when one has finished",
        { "Retry-After": "1" },
      );
    }
    inProgress.set(ip, running + 1);
    try {
      return await answer(c.req.raw, ip);
    } finally {
      const left = (inProgress.get(ip) ?? 1) - 1;
      if (left > 0) inProgress.set(ip, left);
      else inProgress.delete(ip);
    }
  });

  async function answer(request: Request, ip: string): Promise<Response> {
    // Read and check the body ourselves first, so a malformed request gets the protocol's error
    // code (-32700 / -32600) with a 4xx and the body size is capped before anything is parsed.
    const message = await readJsonRpcBody(request, MAX_MCP_BODY);
    const server = createMcpServer(deps, { ip }, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // No hook on the client going away: Deno's request.signal also fires after successful
    // responses (legacy behaviour, with a warning), and scan_site's wait is bounded anyway.
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: message });
      response.headers.set("Cache-Control", "no-store");
      return response;
    } finally {
      // The JSON response is complete once handleRequest resolves; nothing outlives the request.
      await server.close();
    }
  }
  app.all("/", () => {
    throw methodNotAllowed();
  });
  return app;
}
