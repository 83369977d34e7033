/**
 * GET /api/report/:domain.json: the stored record, with an ETag so pollers get cheap 304s. Hits
 * are kept serialised in the report cache for a second (lib/kit/storage/report_cache.ts); lib/app/app.ts serves
 * them before routing.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../../kit/web/context.ts";
import { anyOrigin, domainParam, type RouteDef } from "../../../../../kit/web/route.ts";
import { PATHS } from "../../../../../kit/report_urls.ts";
import { DOMAIN_PARAMETER, errorResponse, json } from "../../../../../kit/web/openapi.ts";
import { NotFoundError } from "../../../../../kit/errors.ts";
import { etagMatches, readReport } from "../../../../../kit/storage/report_cache.ts";
import { attachment, exportFilename } from "../../../../../engines/export/common.ts";

/** GET /api/report/:domain.json. */
export const reportJsonRoute: RouteDef = {
  path: PATHS.reportJson,
  use: [anyOrigin],
  handlers: (deps) => ({ GET: (c) => reportJson(c, deps) }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getReport",
      summary: "The stored record of a domain",
      description: "No credentials. Answers with an ETag; send If-None-Match when polling.",
      security: [{}],
      parameters: [DOMAIN_PARAMETER, {
        name: "download",
        in: "query",
        required: false,
        description: "Present (`?download=1`): the same body with a Content-Disposition " +
          "attachment header, so a browser saves it as a file (the report page's Download JSON).",
        schema: { type: "string" },
      }],
      responses: {
        "200": {
          description: "The stored record.",
          headers: {
            ETag: { schema: { type: "string" } },
            "Content-Disposition": {
              description: 'With ?download: `attachment; filename="example.com-...json"`.',
              schema: { type: "string" },
            },
          },
          content: json("ScanRecord"),
        },
        "304": { description: "Unchanged since the ETag sent in If-None-Match." },
        "400": errorResponse("Not a domain name."),
        "404": errorResponse('Never scanned: `{"error":"Not found"}`.'),
      },
    },
  }),
};

async function reportJson(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  // The parameter keeps its ".json" (lib/kit/web/route.ts honoPath).
  const domain = domainParam(c, ".json");
  const report = await readReport(deps.store, domain, deps.reportCache);
  if (!report) {
    c.header("Cache-Control", "no-store");
    throw new NotFoundError();
  }
  c.header("ETag", report.etag);
  c.header("Cache-Control", "public, max-age=0, must-revalidate");
  if (etagMatches(c.req.header("if-none-match"), report.etag)) return c.body(null, 304);
  c.header("Content-Type", "application/json");
  // ?download=1 (the report page's "Download JSON"): the same body, saved under a file name.
  if (c.req.query("download") !== undefined) {
    const input = { service: deps.service, record: report.stored.record };
    c.header("Content-Disposition", attachment(exportFilename(input, "json")));
  }
  return c.body(report.body, 200);
}
