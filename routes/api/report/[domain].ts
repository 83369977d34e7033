/**
 * GET /api/report/:domain.json: the stored record, with an ETag so pollers get cheap 304s. Hits
 * are kept serialised in the report cache for a second (lib/storage/report_cache.ts); lib/app.ts serves
 * them before routing.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../../lib/web/context.ts";
import { InvalidTargetError, normaliseTarget } from "../../../lib/net/target.ts";
import { BadRequestError, NotFoundError } from "../../../lib/errors.ts";
import { etagMatches, readReport } from "../../../lib/storage/report_cache.ts";
import { attachment, exportFilename } from "../../../lib/export/common.ts";

/** The domain a report path names, or a typed error. */
export function reportDomain(file: string): string {
  if (!file.endsWith(".json") || file.length <= 5) throw new NotFoundError();
  try {
    return normaliseTarget(decodeURIComponent(file.slice(0, -5))).domain;
  } catch (e) {
    if (e instanceof InvalidTargetError || e instanceof URIError) {
      throw new BadRequestError(`Not a domain name: ${e.message}`);
    }
    throw e;
  }
}

/** The /api/report routes. */
export function reportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:file", async (c) => {
    const domain = reportDomain(c.req.param("file"));
    c.header("Access-Control-Allow-Origin", "*");
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
  });
  return app;
}
