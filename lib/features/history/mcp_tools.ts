/**
 * The history tools every service offers over MCP (lib/kit/storage/history.ts): `list_scans` (the
 * kept scans of a domain, newest first, with their permanent links and the score trend) and
 * `compare_scans` (what changed between two kept scans, lib/engines/history/diff.ts). Both read stored
 * scans only and never scan.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { NotFoundError } from "../../kit/errors.ts";
import { changesOf, historyOf } from "../../engines/history/service.ts";
import {
  domainOf,
  guarded,
  type McpContext,
  type McpTool,
  toolError,
  toolResult,
  viewing,
} from "../../kit/mcp/context.ts";

const domainArg = z.string().trim().min(1).max(2048)
  .describe('The domain ("example.com"; a URL is accepted too).');
const idArg = z.string().trim().min(1).max(100);

/** The history tools, in the order tools/list gives them. */
export const HISTORY_TOOLS: readonly McpTool[] = [
  { name: "list_scans", register: registerListScans },
  { name: "compare_scans", register: registerCompareScans },
];

/** Registers list_scans: the kept scans of a domain, newest first. */
function registerListScans(server: McpServer, ctx: McpContext): void {
  server.registerTool("list_scans", {
    title: "List the kept scans of a site",
    description: "Returns the scans kept of a domain, newest first: each scan's id, date, " +
      "status, score and grade, and its permanent links (page and JSON). Free: never scans. " +
      "Use compare_scans with two ids to see what changed.",
    inputSchema: {
      domain: domainArg,
      limit: z.number().int().min(1).max(1000).optional()
        .describe("At most this many scans, newest first. Default 50."),
    },
    outputSchema: {
      domain: z.string(),
      scans: z.array(
        z.object({
          id: z.string(),
          scannedAt: z.string(),
          status: z.enum(["ok", "failed"]),
          score: z.number().nullable(),
          grade: z.string().nullable(),
          url: z.string().optional(),
          page: z.string().describe("GET this path for the scan's report page."),
          json: z.string().describe("GET this path for the scan's record as JSON."),
        }).passthrough(),
      ),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, ({ domain: input, limit }) =>
    guarded(ctx, "list_scans", async () => {
      const domain = domainOf(input);
      const scans = await historyOf(ctx.deps.store, domain, limit ?? 50);
      const lines = scans.map((s) =>
        `${s.scannedAt} ${s.id}: ${
          s.status === "failed" ? "failed" : s.score === null ? "ok" : `${Math.round(s.score)}/100`
        }${s.grade ? ` (${s.grade})` : ""}`
      );
      return toolResult(
        scans.length
          ? `${scans.length} kept scan(s) of ${domain}, newest first:\n${lines.join("\n")}`
          : `No kept scan of ${domain}. Call scan_site to scan it.`,
        { domain, scans },
      );
    }));
}

/** Registers compare_scans: what changed between two kept scans. */
function registerCompareScans(server: McpServer, ctx: McpContext): void {
  server.registerTool("compare_scans", {
    title: "Compare two scans of a site",
    description: "What changed between two kept scans of a domain: the score and grade change, " +
      "each pillar's change, the issues fixed, the new issues and the other verdicts that " +
      "changed, in plain words, and whether it is a regression (a lower score or a new critical " +
      "issue). Without ids: the latest scan against the one before it. Free: never scans.",
    inputSchema: {
      domain: domainArg,
      from: idArg.optional().describe("The earlier scan's id (from list_scans)."),
      to: idArg.optional().describe("The later scan's id (default: the latest)."),
    },
    outputSchema: {
      domain: z.string(),
      comparable: z.boolean().describe("False when there is no earlier scan to compare with."),
      changes: z.record(z.string(), z.unknown()).nullable(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, ({ domain: input, from, to }) =>
    guarded(ctx, "compare_scans", () =>
      viewing(ctx, async () => {
        const domain = domainOf(input);
        let diff;
        try {
          diff = await changesOf(ctx.deps.store, domain, { from, to });
        } catch (e) {
          if (e instanceof NotFoundError) return toolError(`${e.message}. Call list_scans first.`);
          throw e;
        }
        if (!diff) {
          return toolResult(`${domain} has only one kept scan: nothing to compare yet.`, {
            domain,
            comparable: false,
            changes: null,
          });
        }
        return toolResult(
          `${domain}, ${diff.from.scannedAt} -> ${diff.to.scannedAt}:\n` + diff.summary.join("\n") +
            (diff.regression ? `\nRegression: ${diff.regressionReasons.join("; ")}.` : ""),
          { domain, comparable: true, changes: diff as unknown as Record<string, unknown> },
        );
      })));
}
