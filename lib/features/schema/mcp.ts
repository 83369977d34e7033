/**
 * The Schema Markup Generator over MCP: how its record reads as text for an agent, and
 * `generate_schema`, which scans one page (cache, limits and all, like scan_site) and answers with
 * what an agent acts on: the ready-to-paste JSON-LD, what to fill in by hand, and the errors in
 * the markup the page already has.
 */
import { nonRenderingNames } from "../../engines/structured/page_view.ts";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  DeprecationSchema,
  EligibilitySchema,
  FindingSchema,
  GeneratedSchema,
  type SchemaScanRecord,
} from "../../engines/structured/record.ts";
import { LIMITS } from "../../kit/limits/limits.ts";
import { moreLikeThis } from "../../engines/structured/finding_log.ts";
import {
  guarded,
  type McpContext,
  type McpServiceAdapter,
  reportPath,
  reportUri,
  stillRunning,
  toolError,
  toolResult,
} from "../../kit/mcp/context.ts";
import { scanAndWait } from "../../engines/scan/scan_wait.ts";

/** The schema service's MCP adapter. */
export const schemaMcp: McpServiceAdapter = {
  serverName: "schema-markup-generator",
  summarise: (record) => summarise(record as SchemaScanRecord),
  // validate_code, which this service offers too (it validates code in hand), is the validate
  // feature's (lib/features/validate/mcp_tools.ts).
  tools: [{ name: "generate_schema", register: registerGenerateSchema }],
  instructions: "A record describes one page: the structured data it has (JSON-LD, microdata, " +
    "RDFa), the findings (errors and warnings with a path and how to fix each) and generated " +
    "JSON-LD (one @graph to paste, plus the properties to fill in by hand). generate_schema " +
    "returns the markup directly; validate_code checks pasted HTML or JSON-LD without fetching " +
    "anything (findings, rich-result eligibility per item and feature, generated markup).",
};

/** A readable summary of a schema record. */
export function summarise(record: SchemaScanRecord, maxFindings = 8): string {
  const head = `Structured data of ${record.url} (scanned ${record.scannedAt})`;
  const r = record.result;
  if (!r) {
    return `${head}\nThe scan failed: the page could not be fetched or is not HTML. Check the URL ` +
      "and that the page is publicly reachable, then scan again later.";
  }
  const s = r.summary;
  const lines = [
    head,
    `${s.items} items found (${s.types.join(", ") || "none"}); ${s.errors} errors, ${s.warnings} ` +
    `warnings, ${s.deprecated} deprecated rich results; generated ${s.generatedNodes} nodes, ` +
    `${s.fillIn} properties to fill in by hand.`,
  ];
  if (r.view?.rendered) {
    const { origins: o, seen } = r.view;
    lines.push(
      `One view of the page: ${o.server} items from the server HTML, ${o.added} added, ` +
        `${o.changed} changed and ${o.removed} removed by scripts; readers that render (Google) ` +
        `read ${seen.rendering}, those that read the server HTML only ` +
        `(${nonRenderingNames(r.view.readers)}) read ${seen.nonRendering}.`,
    );
  }
  const note = r.view?.note ?? r.rendered?.note;
  if (note) lines.push("", r.view?.rendered ? `Rendered in a browser: ${note}` : note);
  const eligibility = r.eligibility ?? [];
  if (eligibility.length) {
    lines.push(
      "",
      "Rich results (as Google's Rich Results Test shows them):",
      ...eligibility.slice(0, 12).map((e) =>
        `- ${e.feature} (${e.type}): ${e.status}${
          e.status === "not eligible" && e.reasons[0] ? `, because ${e.reasons[0]}` : ""
        }`
      ),
    );
  } else {
    lines.push("", "No item is read for any of Google's rich results.");
  }
  const worst = [...r.findings].sort((
    a,
    b,
  ) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1))
    .slice(0, maxFindings);
  if (worst.length) {
    lines.push(
      "",
      "Findings:",
      ...worst.map((f) => `- [${f.severity}] ${f.path}: ${f.message}${moreLikeThis(f)}`),
    );
  }
  if (r.generated.fillIn.length) {
    lines.push("", "Fill in by hand:", ...r.generated.fillIn.map((f) => `- ${f.path}: ${f.why}`));
  }
  lines.push("", "Generated markup (paste into the page's <head>):", r.generated.script);
  return lines.join("\n");
}

/** Registers generate_schema. */
function registerGenerateSchema(server: McpServer, ctx: McpContext): void {
  server.registerTool("generate_schema", {
    title: "Generate schema.org markup for a page",
    description: "Scans one page and returns the schema.org JSON-LD it should carry (one @graph, " +
      "ready to paste, merged with what the page already declares and never inventing values), " +
      "the properties the owner must fill in by hand, and the errors and warnings in the page's " +
      "existing structured data (each with a path and how to fix it). A result younger than 24 " +
      `hours for the same page is returned from cache for free; new scans are limited to ${LIMITS.ip} ` +
      `per hour per caller IP and ${LIMITS.domain} per hour per domain.`,
    inputSchema: {
      url: z.string().trim().min(1).max(2048)
        .describe('The page: a URL ("https://shop.example/products/trail-runner") or a domain.'),
      forceRescan: z.boolean().optional()
        .describe("Scan again even if a result younger than 24 hours exists. Default false."),
      render: z.boolean().optional().describe(
        "Render the page in a browser (as Google does) and merge the structured data scripts add, change or remove into the report. Default: rendered where this server has a browser; false opts out.",
      ),
    },
    outputSchema: {
      domain: z.string(),
      url: z.string().nullable().describe("The page the result describes."),
      state: z.enum(["complete", "running", "failed"]),
      fromCache: z.boolean(),
      script: z.string().nullable()
        .describe('The ready-to-paste <script type="application/ld+json"> element.'),
      graph: GeneratedSchema.shape.graph.nullable(),
      fillIn: GeneratedSchema.shape.fillIn.describe("What the owner should add by hand."),
      findings: z.array(FindingSchema),
      deprecated: z.array(DeprecationSchema),
      eligibility: z.array(EligibilitySchema)
        .describe("Rich-result eligibility per item and Google feature."),
      reportPath: z.string(),
      resourceUri: z.string(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
  }, ({ url, forceRescan, render }, extra) =>
    guarded(ctx, "generate_schema", async () => {
      const scan = await scanAndWait(ctx, url, forceRescan ?? false, extra.signal, render);
      const base = {
        domain: scan.domain,
        reportPath: reportPath(scan.domain),
        resourceUri: reportUri(scan.domain),
      };
      const empty = {
        script: null,
        graph: null,
        fillIn: [],
        findings: [],
        deprecated: [],
        eligibility: [],
      };
      if (!scan.record) {
        return toolResult(stillRunning(scan.domain, scan.started, "generate_schema"), {
          ...base,
          url: null,
          state: "running",
          fromCache: false,
          ...empty,
        });
      }
      const record = scan.record as SchemaScanRecord;
      if (!record.result) {
        return toolError(summarise(record));
      }
      const r = record.result;
      return toolResult(summarise(record), {
        ...base,
        url: record.url,
        state: "complete",
        fromCache: scan.fromCache,
        script: r.generated.script,
        graph: r.generated.graph,
        fillIn: r.generated.fillIn,
        findings: r.findings,
        deprecated: r.deprecated,
        eligibility: r.eligibility ?? [],
      });
    }));
}
