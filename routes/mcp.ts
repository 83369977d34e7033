/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, for AI agents. No credentials (the
 * spec says so); callers count as anonymous by IP. Stateless: every POST gets a new McpServer and
 * a new SDK transport answering with plain JSON (no SSE stream, no session), so any process of a
 * deployment can answer any request. GET and DELETE (a session's stream and end) are 405.
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import type { AppEnv } from "../lib/web/context.ts";
import {
  DEFAULT_MCP_CONCURRENT_PER_IP,
  type McpDeps,
  type McpOptions,
} from "../lib/mcp/context.ts";
import {
  batchesAllowed,
  checkOrigin,
  corsHeaders,
  JSONRPC,
  JsonRpcHttpError,
  methodNotAllowed,
  originPolicyFor,
  preflightResponse,
  readJsonRpcBody,
} from "../lib/mcp/http.ts";
import { createMcpServer } from "../lib/mcp/server.ts";
import { ipv6Prefix48 } from "../lib/net/client_ip.ts";
import { CAPS } from "../lib/limits/limits.ts";

/** Largest accepted body: a tool call is a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

/** The /mcp routes (AppDeps fits: the MCP server needs only the scan flow's part of it). */
export function mcpRoutes(deps: McpDeps, options: McpOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Requests in progress per client IP (and IPv6 /48): scan_site may hold one for up to
  // scanWaitMs, so without a cap one address could hold any number of them open.
  const inProgress = new Map<string, number>();
  const maxPerIp = options.maxConcurrentPerIp ?? DEFAULT_MCP_CONCURRENT_PER_IP;
  const maxPer48 = Math.max(maxPerIp, options.maxConcurrentPer48 ?? CAPS.mcpConcurrentPer48);
  const policy = options.originPolicy ?? originPolicyFor(deps.config);
  // DNS-rebinding protection and CORS, before anything else runs: a foreign Host or Origin is
  // 403 on every method; an allowed browser origin gets CORS headers on every answer, errors too.
  app.use("*", async (c, next) => {
    const origin = checkOrigin(c.req.raw, policy);
    if (c.req.method === "OPTIONS") return preflightResponse(origin);
    try {
      await next();
    } catch (error) {
      if (error instanceof JsonRpcHttpError) error.addHeaders(corsHeaders(origin));
      throw error;
    }
    for (const [name, value] of Object.entries(corsHeaders(origin))) c.res.headers.set(name, value);
  });
  app.post("/", async (c) => {
    const ip = c.get("clientIp");
    const request = c.req.raw;
    // Read and check the body first (at most 64 KiB), so a malformed request gets the protocol's
    // error code (-32700 / -32600) with a 4xx before anything else is parsed.
    const message = await readJsonRpcBody(request, MAX_MCP_BODY, {
      allowBatch: batchesAllowed(request),
    });
    // A batch holds as many slots as it has tool calls (each may wait for a scan).
    const weight = Array.isArray(message)
      ? Math.max(1, message.filter((m) => m?.method === "tools/call").length)
      : 1;
    // Counted per address and, for IPv6, per /48 too: rotating /64s does not add slots.
    const slots: [string, number][] = [[ip, maxPerIp]];
    const prefix = ipv6Prefix48(ip);
    if (prefix) slots.push([prefix, maxPer48]);
    const full = slots.find(([id, max]) => (inProgress.get(id) ?? 0) + weight > max);
    if (full) {
      throw new JsonRpcHttpError(
        429,
        JSONRPC.serverError,
        `Too many requests in progress from your ${
          full[0] === ip ? "address" : "network (/48)"
        } (at most ${full[1]} at once); retry when one has finished`,
        { "Retry-After": "1" },
      );
    }
    for (const [id] of slots) inProgress.set(id, (inProgress.get(id) ?? 0) + weight);
    try {
      return await answer(request, message, ip);
    } finally {
      for (const [id] of slots) {
        const left = (inProgress.get(id) ?? weight) - weight;
        if (left > 0) inProgress.set(id, left);
        else inProgress.delete(id);
      }
    }
  });

  async function answer(request: Request, message: unknown, ip: string): Promise<Response> {
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
