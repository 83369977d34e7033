/**
 * What every MCP tool, resource and prompt receives, and the helpers they share: tool errors an
 * agent can act on, domain arguments normalised like the API does, and one guard that turns our
 * typed errors into tool errors without ever leaking an internal one.
 */
import type { ScanRunner } from "../isolate/runner.ts";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { InvalidTargetError, normaliseTarget } from "../net/target.ts";
import { BadRequestError, HttpError, RateLimitedError } from "../errors.ts";
import type { ServiceDef, ServiceMcp } from "../../service.ts";
import type { McpOriginPolicy } from "./http.ts";
import type { ServiceDeps } from "../service_deps.ts";
import { reportJsonPath } from "../report_urls.ts";
import type { RecordViewGate } from "../web/record_views.ts";

/**
 * What every MCP tool may use of the app: the scan flow's dependencies (the service, its store,
 * the clock, DNS), the scan threads and a log sink. A feature whose tools need more says so in its
 * tools' type (`McpTool<McpDeps & { watch?: WatchDeps }>`); the app (lib/app/deps.ts) hands in
 * deps that hold every feature's part.
 */
export interface McpDeps extends ServiceDeps {
  /** Structured log sink (one JSON object per event). */
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Where jobs run (the server's workers): code validation (lib/features/validate/), server logs
   * (lib/features/logs/, `runStream`).
   */
  threads?: (Pick<ScanRunner, "runJob"> & Partial<Pick<ScanRunner, "runStream">>) | null;
}

/** Tunables of POST /mcp (tests shorten the wait). */
export interface McpOptions {
  /** How long scan_site waits for a new scan before answering that it is still running. */
  scanWaitMs?: number;
  /** How often scan_site looks for the finished record while it waits. */
  pollIntervalMs?: number;
  /** Requests one IP may have in progress at once (scan_site can hold one for `scanWaitMs`). */
  maxConcurrentPerIp?: number;
  /** Requests one IPv6 /48 may have in progress at once (default CAPS.mcpConcurrentPer48). */
  maxConcurrentPer48?: number;
  /** Accepted Host names and origins; default from the configuration (lib/kit/mcp/http.ts). */
  originPolicy?: McpOriginPolicy;
  /** The app's queue of record views (lib/kit/web/record_views.ts): tools reading records wait in it. */
  recordViews?: RecordViewGate;
}

/** Default of {@link McpOptions.maxConcurrentPerIp}. */
export const DEFAULT_MCP_CONCURRENT_PER_IP = 4;

/** Default of {@link McpOptions.scanWaitMs}: long enough for most scans, short for an agent. */
export const DEFAULT_SCAN_WAIT_MS = 20_000;
/** Default of {@link McpOptions.pollIntervalMs}. */
export const DEFAULT_POLL_INTERVAL_MS = 250;

/**
 * One MCP request's view of the service: who calls (anonymous, by IP) and what they can use.
 * `D`: what its tools need of the app (see {@link McpDeps}).
 */
export interface McpContext<D extends McpDeps = McpDeps> {
  deps: D;
  /** The caller's IP (set by the app's middleware): the identity of every tool but the watch tools. */
  ip: string;
  /** The request's Authorization header: only the watch tools read it (lib/features/watch/mcp_tools.ts). */
  authorization: string | null;
  scanWaitMs: number;
  pollIntervalMs: number;
  /** The app's queue of record views, when the tools run inside the app. */
  views?: RecordViewGate;
}

/**
 * One MCP tool, as a feature lists it (`REPORT_TOOLS`, `HISTORY_TOOLS`, ... in each feature's
 * mcp_tools.ts; a service's own in its adapter's `tools`): lib/app/mcp_server.ts concatenates the
 * lists, as lib/app/routes.ts does the routes. `D`: what the tool needs of the app.
 */
export interface McpTool<D extends McpDeps = McpDeps> {
  /** Its name in tools/list: the name {@link McpTool.register} registers it under. */
  name: string;
  /**
   * Whether a server offers it: a capability of its service, a feature the server was built with
   * (default: every server).
   */
  offered?(deps: D): boolean;
  /** Registers it (`server.registerTool(name, ...)`) on one request's server. */
  register(server: McpServer, ctx: McpContext<D>): void;
}

/**
 * Runs a tool's read of stored records in the app's queue of record views, as the caller's turn
 * (per address, /48 counted): the same budget as the report pages and exports.
 */
export function viewing<T>(ctx: McpContext, read: () => Promise<T>): Promise<T> {
  return ctx.views ? ctx.views.run(ctx.ip, read) : read();
}

/**
 * What differs between the services over MCP (lib/service.ts ServiceMcp, with this module's
 * request context): the server's name, how a record reads as text, the extra tools and prompts
 * only that service has, and a paragraph for the server's instructions. Each service's adapter is
 * its folder's mcp.ts (lib/features/<name>/mcp.ts).
 */
export type McpServiceAdapter = ServiceMcp<McpContext, McpTool>;

/** The MCP adapter of a service (lib/service.ts ServiceMcp, with this module's request context). */
export function adapterOf(service: ServiceDef): McpServiceAdapter {
  return service.mcp as McpServiceAdapter;
}

/** Where the HTTP API serves a domain's record. */
export function reportPath(domain: string): string {
  return reportJsonPath(domain);
}

/** The MCP resource URI of a domain's record. */
export function reportUri(domain: string): string {
  return `report://${domain}`;
}

/** The answer while a scan is still running: how to fetch the result later. */
export function stillRunning(domain: string, started: boolean, tool: string): string {
  return `The scan of ${domain} is still running` +
    (started ? "" : " (it was already started by an earlier request)") +
    `. Call get_report with domain "${domain}" in a few seconds, or GET ${reportPath(domain)} ` +
    `on this server, or read the resource ${reportUri(domain)}. ` +
    `Do not call ${tool} again for it: that would not be faster.`;
}

/**
 * The tool error of a request we refused (an HttpError below 500: its message says why, for the
 * agent to act on), or null for anything else (the caller rethrows it to {@link guarded}).
 */
export function refusal(error: unknown): CallToolResult | null {
  return error instanceof HttpError && error.status < 500 ? toolError(error.message) : null;
}

/** A tool result that tells the agent what went wrong (`isError: true`, not a protocol error). */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/**
 * A successful tool result. Its first text part is the serialized structured content, as the
 * MCP specification recommends for clients that do not read `structuredContent`; a readable
 * summary of the same facts follows as a second text part.
 */
export function toolResult(
  text: string,
  structuredContent: Record<string, unknown>,
): CallToolResult {
  return {
    content: [
      { type: "text", text: JSON.stringify(structuredContent) },
      { type: "text", text },
    ],
    structuredContent,
  };
}

/** The record key of a domain or URL argument, exactly as POST /api/scan computes it. */
export function domainOf(input: string): string {
  return normaliseTarget(input).domain;
}

/**
 * Runs a tool body and maps our typed errors to tool errors: a bad target or a name that does not
 * resolve says why, a limit says when to retry (seconds and time); anything else is logged and
 * answered with a generic message, so no internal detail reaches the caller.
 */
export async function guarded(
  ctx: McpContext,
  tool: string,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InvalidTargetError) return toolError(`Invalid url: ${error.message}.`);
    if (error instanceof RateLimitedError) {
      const at = new Date(ctx.deps.now() + error.retryAfterSeconds * 1000).toISOString();
      return toolError(
        `${error.message.replace(/Retry in \d+ seconds\.?$/, "").trimEnd()} ` +
          `Retry after ${error.retryAfterSeconds} seconds (at ${at}).` +
          (tool === "scan_site"
            ? " Reading a report that already exists (get_report) never counts against the limits."
            : ""),
      );
    }
    if (error instanceof BadRequestError) return toolError(error.message);
    (ctx.deps.log ?? ((e) => console.error(JSON.stringify(e))))({
      event: "mcp.tool_error",
      tool,
      error: error instanceof Error ? error.message : String(error),
    });
    return toolError("Internal error while running the tool; please retry later.");
  }
}
