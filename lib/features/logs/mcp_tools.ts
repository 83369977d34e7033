/**
 * Server logs over MCP: `analyse_server_log` reads a log given as text (at most 48 KiB: /mcp takes
 * bodies of 64 KiB, routes/mcp.ts; larger logs go through POST /api/logs/{domain} or
 * `deno task logs`) in a worker process like an upload (the "log-read" job, its bytes streamed in),
 * and answers with the report. With the account's API key in the MCP request's Authorization
 * header and a `url`, the aggregates are added to that site of the account (as the API does);
 * without, nothing is stored.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HttpError } from "../../kit/errors.ts";
import { accountOfBearer } from "../../kit/auth/caller.ts";
import { normaliseTarget } from "../../kit/net/target.ts";
import {
  guarded,
  type McpContext,
  type McpTool,
  toolError,
  toolResult,
} from "../../kit/mcp/context.ts";
import { FORMAT_IDS } from "./formats.ts";
import { logFigures } from "./figures.ts";
import { reportText } from "./report_text.ts";
import { logsOf } from "./site_logs.ts";

/** The largest log the tool takes, in bytes of UTF-8. */
export const MAX_TOOL_LOG = 48 * 1024;

/** The server-log tools, in the order tools/list gives them. */
export const LOG_TOOLS: readonly McpTool[] = [
  {
    name: "analyse_server_log",
    offered: (deps) => deps.service.readsServerLogs === true,
    register: registerAnalyseServerLog,
  },
];

/** Registers analyse_server_log. */
function registerAnalyseServerLog(server: McpServer, ctx: McpContext): void {
  server.registerTool("analyse_server_log", {
    title: "Which AI crawlers really come (a server access log)",
    description:
      "Reads a web server or CDN access log (Combined/Common, nginx or Caddy JSON, IIS, " +
      "CloudFront, ALB, Cloudflare Logpush, Vercel or Netlify drains; detected unless `format` is " +
      "given) and reports per AI crawler its hits verified against the vendor's published " +
      "addresses (or reverse DNS, or Web Bot Auth), spoofed or unverifiable, with the status " +
      "mix, pages, spoofing networks and robots.txt-disallowed fetches. People's lines are " +
      "dropped as read. With the account's API key in the Authorization header and a `url`, the " +
      "counts are added to that site's stored logs; otherwise nothing is stored. At most 48 KiB " +
      "(larger logs: POST /api/logs/{domain}).",
    inputSchema: {
      log: z.string().min(1).describe("The log's text (at most 48 KiB)."),
      format: z.enum(FORMAT_IDS).optional().describe(
        "The log's format, when detection is not wanted.",
      ),
      url: z.string().trim().min(1).max(2048).optional()
        .describe("The site the log is of (stores the counts for the account of the key)."),
    },
    outputSchema: {
      read: z.record(z.string(), z.unknown()),
      report: z.record(z.string(), z.unknown()),
      stored: z.boolean(),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  }, (args) =>
    guarded(ctx, "analyse_server_log", async () => {
      const bytes = new TextEncoder().encode(args.log);
      if (bytes.length > MAX_TOOL_LOG) {
        return toolError(
          `The log is ${bytes.length} bytes; this tool reads at most ${MAX_TOOL_LOG}. Send larger logs to POST /api/logs/{domain}.`,
        );
      }
      const deps = ctx.deps;
      const logs = logsOf(deps);
      try {
        if (args.url && ctx.authorization) {
          const { accountId } = await accountOfBearer(ctx.authorization, {
            store: deps.store,
            keyPrefix: deps.service.keyPrefix,
            now: deps.now,
          });
          const domain = normaliseTarget(args.url).domain;
          const read = await logs.ingest(accountId, domain, new Blob([bytes]).stream(), {
            format: args.format,
            statedBytes: bytes.length,
          });
          const report = await logs.report(accountId, domain);
          return toolResult(reportText(read, report), {
            read: read as unknown as Record<string, unknown>,
            report: report as unknown as Record<string, unknown>,
            stored: true,
          });
        }
        const { aggregates, summary } = await logs.read(new Blob([bytes]).stream(), {
          format: args.format,
          statedBytes: bytes.length,
          maxBytes: MAX_TOOL_LOG,
        });
        // No site, so no robots.txt to join: the figures alone.
        const report = logFigures(aggregates).report;
        return toolResult(reportText(summary, report), {
          read: summary as unknown as Record<string, unknown>,
          report: report as unknown as Record<string, unknown>,
          stored: false,
        });
      } catch (error) {
        // Busy readers, a read stopped at its limit, too many counters: said in the same words.
        if (error instanceof HttpError) return toolError(error.message);
        if (error instanceof Error && error.name === "InvalidTargetError") {
          return toolError(error.message);
        }
        throw error;
      }
    }));
}
