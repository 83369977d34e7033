/**
 * Builds the MCP server of one service for one request. POST /mcp is stateless (a new server and
 * transport per request), so the caller's IP is fixed when the server is built and every tool
 * sees it: MCP callers are anonymous and their new scans count in the per-IP pool.
 *
 * @example
 * ```ts
 * const server = createMcpServer(deps, { ip: "203.0.113.7" });
 * await server.connect(transport);
 * ```
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { PRODUCT } from "../kit/config.ts";
import { CAPS, LIMITS } from "../kit/limits/limits.ts";
import type { ServiceDef } from "../service.ts";
import {
  adapterOf,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SCAN_WAIT_MS,
  type McpContext,
  type McpOptions,
  type McpServiceAdapter,
  type McpTool,
} from "../kit/mcp/context.ts";
import { registerReportResource } from "../kit/mcp/resources.ts";
import type { ServerMcpDeps } from "./deps.ts";
import { REPORT_TOOLS } from "../features/report/mcp_tools.ts";
import { HISTORY_TOOLS } from "../features/history/mcp_tools.ts";
import { VALIDATE_TOOLS } from "../features/validate/mcp_tools.ts";
import { WATCH_TOOLS } from "../features/watch/mcp_tools.ts";
import { ANSWER_TOOLS } from "../features/answers/mcp_tools.ts";
import { LOG_TOOLS } from "../features/logs/mcp_tools.ts";

/**
 * The tools the MCP server of `deps.service` offers, in the order tools/list gives them: each
 * feature's list (its mcp_tools.ts), the service's own tools (its adapter's) after the history
 * tools, each where it says it is offered. Adding a tool is an entry in its feature's list.
 */
export function toolsOf(deps: ServerMcpDeps): McpTool<ServerMcpDeps>[] {
  const tools: readonly McpTool<ServerMcpDeps>[] = [
    ...REPORT_TOOLS,
    ...HISTORY_TOOLS,
    ...adapterOf(deps.service).tools,
    ...VALIDATE_TOOLS,
    ...WATCH_TOOLS,
    ...ANSWER_TOOLS,
    ...LOG_TOOLS,
  ];
  return tools.filter((tool) => tool.offered?.(deps) ?? true);
}

/** Most array elements plus object members one tool call's arguments may hold. */
const MAX_TOOL_INPUT_ELEMENTS = 64;

/** The MCP server of `deps.service` for one caller. */
export function createMcpServer(
  deps: ServerMcpDeps,
  caller: { ip: string; authorization?: string | null },
  options: McpOptions = {},
): McpServer {
  const service = deps.service;
  const adapter = adapterOf(service);
  const ctx: McpContext<ServerMcpDeps> = {
    deps,
    ip: caller.ip,
    authorization: caller.authorization ?? null,
    scanWaitMs: options.scanWaitMs ?? DEFAULT_SCAN_WAIT_MS,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    views: options.recordViews,
  };
  const server = new McpServer(
    { name: adapter.serverName, title: service.title, version: PRODUCT.version },
    {
      instructions: instructionsFor(service, adapter, ctx),
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
    },
  );
  for (const tool of toolsOf(deps)) tool.register(server, ctx);
  registerReportResource(server, ctx);
  adapter.registerPrompts?.(server, ctx);
  withoutListChanged(server);
  return server;
}

/** A tool as the MCP server registers it (for the docs page and the OpenAPI text). */
export interface McpToolInfo {
  name: string;
  title: string;
}

/**
 * The tools the MCP server of `deps.service` registers, in registration order: read from the same
 * list {@link createMcpServer} registers ({@link toolsOf}), so the docs page and the OpenAPI text
 * list exactly the tools /mcp serves. Throws when a tool registers under another name than its
 * list entry says (a list that lies would hide a tool from the docs).
 */
export function mcpTools(deps: ServerMcpDeps): McpToolInfo[] {
  const tools: McpToolInfo[] = [];
  let expected = "";
  const recorder = {
    registerTool: (name: string, config: { title?: string }) => {
      if (name !== expected) {
        throw new Error(`The MCP tool listed as ${expected} registers as ${name}`);
      }
      tools.push({ name, title: config.title ?? name });
      return {};
    },
  } as unknown as McpServer;
  const ctx: McpContext<ServerMcpDeps> = {
    deps,
    ip: "",
    authorization: null,
    scanWaitMs: DEFAULT_SCAN_WAIT_MS,
    pollIntervalMs: DEFAULT_POLL_INTERVAL_MS,
  };
  for (const tool of toolsOf(deps)) {
    expected = tool.name;
    tool.register(recorder, ctx);
  }
  return tools;
}

/**
 * Stops the server advertising `listChanged` for tools, resources and prompts: the SDK sets it
 * whenever one is registered, but our lists are fixed per service and a stateless server has no
 * stream to send the notification on, so promising it would be false.
 */
function withoutListChanged(server: McpServer): void {
  // getCapabilities is what the SDK's initialize handler answers with (private in its types).
  const inner = server.server as unknown as { getCapabilities(): ServerCapabilities };
  const capabilities = inner.getCapabilities.bind(inner);
  inner.getCapabilities = () => {
    const all = { ...capabilities() };
    for (const kind of ["tools", "resources", "prompts"] as const) {
      const entry = all[kind];
      if (entry && "listChanged" in entry) {
        const { listChanged: _dropped, ...rest } = entry;
        all[kind] = rest;
      }
    }
    return all;
  };
}

/** The server's instructions: the workflow, the limits and what is free. */
export function instructionsFor(
  service: ServiceDef,
  adapter: McpServiceAdapter,
  ctx: Pick<McpContext, "scanWaitMs">,
): string {
  return [
    `${service.title}: scans a public web site and returns a scored report.`,
    "Workflow: call scan_site with a domain or URL. A report younger than 24 hours comes back at " +
    "once from cache. Otherwise a new scan runs and scan_site waits up to " +
    `${Math.round(ctx.scanWaitMs / 1000)} seconds; if it answers state "running", call ` +
    "get_report with the domain a few seconds later (do not call scan_site again).",
    "get_report and the report://{domain} resource read the stored report and never scan.",
    "Every scan is kept: list_scans lists a domain's scans (ids, scores, permanent links) and " +
    "compare_scans says what changed between two of them (by default the latest against the " +
    "one before); both are free and never scan.",
    adapter.instructions,
    `Limits: callers are anonymous, so new scans count against the caller's IP address ` +
    `(${LIMITS.ip} per hour; an IPv6 /48 shares ${CAPS.prefix48Scans}) and the domain ` +
    `(${LIMITS.domain} per hour), exactly like the public web form. Cached reports are free. ` +
    "forceRescan always starts a new scan, so use it only " +
    "after the site changed. A limit hit is a tool error that says when to retry.",
  ].filter(Boolean).join("\n\n");
}
