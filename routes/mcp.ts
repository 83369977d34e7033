/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, for AI agents. No credentials (the
 * spec says so); callers count as anonymous by IP. Stateless: every POST gets a new McpServer and
 * a new SDK transport answering with plain JSON (no SSE stream, no session), so any process of a
 * deployment can answer any request. GET and DELETE (a session's stream and end) are 405.
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Handler, MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../lib/kit/web/route.ts";
import { DEFAULT_MCP_CONCURRENT_PER_IP, type McpOptions } from "../lib/kit/mcp/context.ts";
import type { ServerDeps, ServerMcpDeps } from "../lib/app/deps.ts";
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
} from "../lib/kit/mcp/http.ts";
import { createMcpServer, mcpTools } from "../lib/app/mcp_server.ts";
import { ipv6Prefix48 } from "../lib/kit/net/client_ip.ts";
import { CAPS } from "../lib/kit/limits/limits.ts";
import { PATHS } from "../lib/kit/report_urls.ts";

/** Largest accepted body: a tool call is a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

/** POST /mcp (and every other method, answered by the protocol's own rules). */
export const mcpRoute: RouteDef<ServerDeps> = {
  path: PATHS.mcp,
  handlers: (deps, app) => mcpHandlers(deps, { recordViews: app.viewGate }),
  openapi: ({ deps }) => ({
    post: {
      tags: ["mcp"],
      operationId: "mcp",
      summary: "Model Context Protocol (Streamable HTTP, stateless, JSON responses)",
      description: "JSON-RPC 2.0 messages of the Model Context Protocol. No credentials; " +
        "callers count as anonymous by IP. Tools: " + mcpTools(deps).map((t) => t.name).join(", ") +
        ".",
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
  }),
};

/**
 * The handlers of /mcp (the app's deps fit: the MCP server needs the scan flow's part of them and
 * the features' parts its tools read):
 * POST answers JSON-RPC, OPTIONS a CORS preflight, any other method a 405 in JSON-RPC's words.
 */
export function mcpHandlers(deps: ServerMcpDeps, options: McpOptions = {}): RouteHandlers {
  // Requests in progress per client IP (and IPv6 /48): scan_site may hold one for up to
  // scanWaitMs, so without a cap one address could hold any number of them open.
  const inProgress = new Map<string, number>();
  const maxPerIp = options.maxConcurrentPerIp ?? DEFAULT_MCP_CONCURRENT_PER_IP;
  const maxPer48 = Math.max(maxPerIp, options.maxConcurrentPer48 ?? CAPS.mcpConcurrentPer48);
  const policy = options.originPolicy ?? originPolicyFor(deps.config);
  // DNS-rebinding protection and CORS, before anything else runs: a foreign Host or Origin is
  // 403 on every method; an allowed browser origin gets CORS headers on every answer, errors too.
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    const origin = checkOrigin(c.req.raw, policy);
    if (c.req.method === "OPTIONS") return preflightResponse(origin);
    try {
      await next();
    } catch (error) {
      if (error instanceof JsonRpcHttpError) error.addHeaders(corsHeaders(origin));
      throw error;
    }
    for (const [name, value] of Object.entries(corsHeaders(origin))) c.res.headers.set(name, value);
  };
  const post: Handler<AppEnv> = async (c) => {
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
  };

  async function answer(request: Request, message: unknown, ip: string): Promise<Response> {
    const authorization = request.headers.get("authorization");
    const server = createMcpServer(deps, { ip, authorization }, options);
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
  return {
    POST: [guard, post],
    ALL: [guard, () => {
      throw methodNotAllowed();
    }],
  };
}
