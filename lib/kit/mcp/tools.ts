/**
 * The tools every service offers over MCP: `scan_site` (the shared scan flow, with the same
 * limits as the public form) and `get_report` (the stored record). Neither ever scans by itself:
 * scans go through lib/engines/scan/scan_service.ts `requestScan` (cache -> DNS -> limits -> enqueue) and the
 * queue worker's guarded fetcher, so MCP is no way around either.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { normaliseTarget } from "../net/target.ts";
import { LIMITS } from "../limits/limits.ts";
import { isFresh, requestScan } from "../../engines/scan/scan_service.ts";
import type { BaseRecord } from "../../service.ts";
import type { StoredScan } from "../storage/store.ts";
import {
  domainOf,
  guarded,
  type McpContext,
  type McpServiceAdapter,
  reportPath,
  reportUri,
  toolResult,
  viewing,
} from "./context.ts";

const urlArg = z.string().trim().min(1).max(2048)
  .describe('The site to scan: a domain ("example.com") or a URL ("https://www.example.com/").');
const domainArg = z.string().trim().min(1).max(2048)
  .describe('The domain, as given to scan_site ("example.com"; a URL is accepted too).');

/** Registers scan_site and get_report. */
export function registerCommonTools(
  server: McpServer,
  ctx: McpContext,
  adapter: McpServiceAdapter,
): void {
  const record = ctx.deps.service.recordSchema;
  const where = {
    reportPath: z.string().describe("GET this path on this server for the record as JSON."),
    resourceUri: z.string().describe("The same record as an MCP resource."),
  };

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

/**
 * Waits for the scan the request admitted (or joined) to finish: the domain is no longer in flight
 * and its stored record is at least as new as the request. Polls the store, so it works whichever
 * process runs the scan. Null when the wait ends first (or the client goes away).
 */
async function waitForRecord(
  ctx: McpContext,
  domain: string,
  requestedAt: number,
  signal: AbortSignal,
): Promise<StoredScan | null> {
  const deadline = performance.now() + ctx.scanWaitMs;
  for (;;) {
    // The record is only read once the domain is no longer in flight.
    const stored = (await ctx.deps.store.getInflight(domain))
      ? null
      : await ctx.deps.store.getScan(domain);
    if (stored && isNewEnough(stored.record, requestedAt)) return stored;
    const left = deadline - performance.now();
    if (left <= 0 || signal.aborted) return null;
    await sleep(Math.min(ctx.pollIntervalMs, left), signal);
  }
}

function isNewEnough(record: BaseRecord, requestedAt: number): boolean {
  return Date.parse(record.scannedAt) >= requestedAt;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** What {@link scanAndWait} found: the record (cached or new), or null while still running. */
export interface ScanWait {
  domain: string;
  record: BaseRecord | null;
  fromCache: boolean;
  /** False when the request joined a scan that was already in flight. */
  started: boolean;
}

/**
 * The shared scan flow for tools: a fresh cached record at once, else a new scan (limits and
 * all, through requestScan) waited for up to the configured time.
 */
export async function scanAndWait(
  ctx: McpContext,
  url: string,
  forceRescan: boolean,
  signal?: AbortSignal,
  render = false,
): Promise<ScanWait> {
  const target = { ...normaliseTarget(url), ...(render ? { render: true } : {}) };
  const requestedAt = ctx.deps.now();
  const outcome = await requestScan(target, { kind: "mcp", ip: ctx.ip }, { forceRescan }, ctx.deps);
  const domain = target.domain;
  if (outcome.status === 200) {
    return { domain, record: outcome.record, fromCache: true, started: false };
  }
  const done = await waitForRecord(
    ctx,
    domain,
    requestedAt,
    signal ?? new AbortController().signal,
  );
  return { domain, record: done?.record ?? null, fromCache: false, started: outcome.started };
}

/** The answer while a scan is still running: how to fetch the result later. */
export function stillRunning(domain: string, started: boolean, tool: string): string {
  return `The scan of ${domain} is still running` +
    (started ? "" : " (it was already started by an earlier request)") +
    `. Call get_report with domain "${domain}" in a few seconds, or GET ${reportPath(domain)} ` +
    `on this server, or read the resource ${reportUri(domain)}. ` +
    `Do not call ${tool} again for it: that would not be faster.`;
}
