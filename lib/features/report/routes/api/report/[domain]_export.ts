/**
 * GET /api/report/:domain.md, .html and .sarif: the stored record of a domain as a Markdown or a
 * self-contained HTML report, or as SARIF 2.1.0 for code scanning (lib/engines/export/), served as a
 * download with a file name.
 * Reads the stored record only; a domain never scanned is a 404 like the JSON report. The JSON
 * itself stays at /api/report/:domain.json (lib/features/report/routes/api/report/[domain].ts).
 */
import type { Context } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../../../kit/web/context.ts";
import { anyOrigin, domainParam, type RouteDef } from "../../../../../kit/web/route.ts";
import { NotFoundError } from "../../../../../kit/errors.ts";
import {
  attachment,
  EXPORT_MEDIA_TYPES,
  exportFilename,
  renderExport,
} from "../../../../../engines/export/export.ts";
import { EXPORT_CSP } from "../../../../../engines/export/html.tsx";
import { PATHS, reportPagePath } from "../../../../../kit/report_urls.ts";
import { DOMAIN_PARAMETER, errorResponse } from "../../../../../kit/web/openapi.ts";

/** The formats served here (the JSON is lib/features/report/routes/api/report/[domain].ts). */
type ExportedFormat = "md" | "html" | "sarif";

/** The export of the latest record of a domain in `format`. */
async function exportReport(
  c: Context<AppEnv>,
  deps: AppDeps,
  format: ExportedFormat,
): Promise<Response> {
  // The parameter keeps its ".md" or ".html" (lib/kit/web/route.ts honoPath).
  const domain = domainParam(c, `.${format}`);
  c.header("Cache-Control", "no-cache");
  const stored = await deps.store.getScan(domain);
  if (!stored) throw new NotFoundError();
  const input = {
    service: deps.service,
    record: stored.record,
    failure: stored.failure,
    reportUrl: `${siteOrigin(c, deps.config.trustProxy)}${reportPagePath(domain)}`,
  };
  c.header("Content-Type", EXPORT_MEDIA_TYPES[format]);
  c.header("Content-Disposition", attachment(exportFilename(input, format)));
  // Opened in place anyway, the report may apply its inline styles and nothing else.
  if (format === "html") {
    c.header("Content-Security-Policy", `${EXPORT_CSP}; frame-ancestors 'none'`);
  }
  return c.body(renderExport(input, format), 200);
}

/** GET /api/report/:domain.md: the Markdown report. */
export const reportMarkdownRoute: RouteDef = {
  path: PATHS.reportMarkdown,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({ GET: (c) => exportReport(c, deps, "md") }),
  openapi: () => exportOperation("md"),
};

/** GET /api/report/:domain.html: the self-contained HTML report. */
export const reportHtmlRoute: RouteDef = {
  path: PATHS.reportHtml,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({ GET: (c) => exportReport(c, deps, "html") }),
  openapi: () => exportOperation("html"),
};

/** GET /api/report/:domain.sarif: SARIF 2.1.0, for GitHub code scanning (docs/ci.md). */
export const reportSarifRoute: RouteDef = {
  path: PATHS.reportSarif,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({ GET: (c) => exportReport(c, deps, "sarif") }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getReportSarif",
      summary: "The stored record as SARIF 2.1.0 (GitHub code scanning)",
      description: "Each failing or warning check is a result with its rule, level, message " +
        "and URL; each rule has the learn page's help text. Served as an attachment. No " +
        "credentials.",
      security: [{}],
      parameters: [DOMAIN_PARAMETER],
      responses: {
        "200": {
          description: "The SARIF log.",
          content: { "application/sarif+json": { schema: { type: "object" } } },
        },
        "400": errorResponse("Not a domain name."),
        "404": errorResponse('Never scanned: `{"error":"Not found"}`.'),
      },
    },
  }),
};

/** The OpenAPI operation of an export: the stored record as a downloadable report. */
function exportOperation(format: "md" | "html"): Record<string, unknown> {
  const md = format === "md";
  return {
    get: {
      tags: ["scans"],
      operationId: md ? "getReportMarkdown" : "getReportHtml",
      summary: md
        ? "The stored record as a Markdown report"
        : "The stored record as a self-contained HTML report",
      description:
        (md
          ? "GitHub-flavoured Markdown: headings, tables, fenced code to paste. "
          : "One file with its styles inlined, no script, nothing loaded; prints well. ") +
        "Served as an attachment with a file name (`example.com-ai-visibility-2026-11-21-0900." +
        `${format}\`). Text from the scanned page is escaped. No credentials.`,
      security: [{}],
      parameters: [DOMAIN_PARAMETER],
      responses: {
        "200": {
          description: "The report.",
          headers: {
            "Content-Disposition": {
              description: "`attachment; filename=...`",
              schema: { type: "string" },
            },
          },
          content: {
            [md ? "text/markdown" : "text/html"]: { schema: { type: "string" } },
          },
        },
        "400": errorResponse("Not a domain name."),
        "404": errorResponse('Never scanned: `{"error":"Not found"}`.'),
      },
    },
  };
}
