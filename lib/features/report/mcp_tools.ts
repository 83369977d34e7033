/**
 * The tools every service offers over MCP: `scan_site` (the shared scan flow, with the same
 * limits as the public form) and `get_report` (the stored record). Neither ever scans by itself:
 * scans go through lib/engines/scan/scan_service.ts `requestScan` (cache -> DNS -> limits ->
 * enqueue, lib/engines/scan/scan_wait.ts) and the queue worker's guarded fetcher, so MCP is no way
 * around either.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { LIMITS } from "../../kit/limits/limits.ts";
import { isFresh } from "../../engines/scan/scan_service.ts";
import { scanAndWait } from "../../engines/scan/scan_wait.ts";
import {
  adapterOf,
  domainOf,
  guarded,
  type McpContext,
  type McpTool,
  reportPath,
  reportUri,
  stillRunning,
  toolResult,
  viewing,
} from "../../kit/mcp/context.ts";

const urlArg = z.string().trim().min(1).max(2048)
  .describe('The site to scan: a domain ("example.com") or a URL ("https://www.example.com/").');
const domainArg = z.string().trim().min(1).max(2048)
  .describe('The domain, as given to scan_site ("example.com"; a URL is accepted too).');

/** Where a record is read, in both tools' answers. */
const where = {
  reportPath: z.string().describe("GET this path on this server for the record as JSON."),
  resourceUri: z.string().describe("The same record as an MCP resource."),
};

/** The scan and report tools, in the order tools/list gives them. */
export const REPORT_TOOLS: readonly McpTool[] = [
  { name: "scan_site", register: registerScanSite },
  { name: "get_report", register: registerGetReport },
];

/** Registers scan_site: a cached report at once, else a new scan waited for. */
function registerScanSite(server: McpServer, ctx: McpContext): void {
  const record = ctx.deps.service.recordSchema;
  const adapter = adapterOf(ctx.deps.service);
  server.registerTool("scan_site", {
    title: "Scan a web site",
    description: `Runs the ${ctx.deps.service.title} on a public web site and returns its ` +
      "report. " +
      "A report younger than 24 hours is returned at once from cache, for free. Otherwise a new " +
      `scan starts and this tool waits up to ${
        Math.round(ctx.scanWaitMs / 1000)
      } seconds for it; ` +
      'if it is not done by then the answer has state "running": call get_report a few seconds ' +
      `later. New scans are limited to ${LIMITS.ip} per hour per caller IP and ${LIMITS.domain} ` +
      "per hour per domain; forceRescan ignores the cache and always uses one.",
    inputSchema: {
      url: urlArg,
      forceRescan: z.boolean().optional()
        .describe("Scan again even if a report younger than 24 hours exists. Default false."),
      render: z.boolean().optional().describe(
        "Also render the pages in a browser: what crawlers that do not run JavaScript miss. " +
          "Default false.",
      ),
    },
    outputSchema: {
      domain: z.string().describe("The domain the report is stored under."),
      state: z.enum(["complete", "running"])
        .describe('"complete": record holds the report; "running": fetch it later.'),
      fromCache: z.boolean().describe("True when a stored report was returned and no scan ran."),
      record: record.nullable().describe("The report (null while the scan is still running)."),
      ...where,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
  }, ({ url, forceRescan, render }, extra) =>
    guarded(ctx, "scan_site", async () => {
      const scan = await scanAndWait(ctx, url, forceRescan ?? false, extra.signal, render);
      const base = {
        domain: scan.domain,
        reportPath: reportPath(scan.domain),
        resourceUri: reportUri(scan.domain),
      };
      if (scan.record) {
        return toolResult(
          (scan.fromCache
            ? `Cached report (scanned ${scan.record.scannedAt}; no scan was started).\n\n`
            : "") + adapter.summarise(scan.record),
          { ...base, state: "complete", fromCache: scan.fromCache, record: scan.record },
        );
      }
      return toolResult(
        stillRunning(scan.domain, scan.started, "scan_site"),
        { ...base, state: "running", fromCache: false, record: null },
      );
    }));
}

/** Registers get_report: the stored record, never a scan. */
function registerGetReport(server: McpServer, ctx: McpContext): void {
  const record = ctx.deps.service.recordSchema;
  const adapter = adapterOf(ctx.deps.service);
  server.registerTool("get_report", {
    title: "Get the stored report of a site",
    description: "Returns the latest stored report of a domain without scanning (free: no limit " +
      'is used). found is false when the domain was never scanned; then call scan_site. "fresh" ' +
      "says whether scan_site would return this same report from cache.",
    inputSchema: { domain: domainArg },
    outputSchema: {
      domain: z.string(),
      found: z.boolean().describe("False when the domain was never scanned."),
      scanRunning: z.boolean().describe("True when a scan of the domain is queued or running."),
      fresh: z.boolean().describe("True when the report is younger than the cache lifetime."),
      record: record.nullable().describe("The stored report, or null when never scanned."),
      ...where,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, ({ domain: input }) =>
    guarded(ctx, "get_report", () =>
      viewing(ctx, async () => {
        const domain = domainOf(input);
        const [stored, inflight] = await Promise.all([
          ctx.deps.store.getScan(domain),
          ctx.deps.store.getInflight(domain),
        ]);
        const base = {
          domain,
          scanRunning: inflight !== null,
          reportPath: reportPath(domain),
          resourceUri: reportUri(domain),
        };
        if (!stored) {
          return toolResult(
            `${domain} has never been scanned` +
              (inflight
                ? ", but its first scan is running now: call get_report again in a few seconds."
                : `. Call scan_site with url "${domain}" to scan it.`),
            { ...base, found: false, fresh: false, record: null },
          );
        }
        const fresh = isFresh(stored, ctx.deps.now());
        return toolResult(
          (fresh
            ? ""
            : "This report is older than the cache lifetime; scan_site would scan again.\n") +
            (inflight ? "A newer scan is running now.\n" : "") + adapter.summarise(stored.record),
          { ...base, found: true, fresh, record: stored.record },
        );
      })));
}
