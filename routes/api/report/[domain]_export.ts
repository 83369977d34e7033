/**
 * GET /api/report/:domain.md and /api/report/:domain.html: the stored record of a domain as a
 * Markdown or a self-contained HTML report (lib/export/), served as a download with a file name.
 * Reads the stored record only; a domain never scanned is a 404 like the JSON report. The JSON
 * itself stays at /api/report/:domain.json (routes/api/report/[domain].ts).
 */
import { Hono } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../lib/web/context.ts";
import { InvalidTargetError, normaliseTarget } from "../../../lib/net/target.ts";
import { BadRequestError, NotFoundError } from "../../../lib/errors.ts";
import {
  attachment,
  EXPORT_MEDIA_TYPES,
  exportFilename,
  renderExport,
} from "../../../lib/export/export.ts";
import { EXPORT_CSP } from "../../../lib/export/html.tsx";
import { reportPagePath } from "../../../lib/report_urls.ts";

/** `example.com.md` -> the domain and the format; anything else is not this route's. */
function exportTarget(file: string): { domain: string; format: "md" | "html" } {
  const m = file.match(/^(.+)\.(md|html)$/);
  if (!m) throw new NotFoundError();
  try {
    return { domain: normaliseTarget(decodeURIComponent(m[1])).domain, format: m[2] as "md" };
  } catch (e) {
    if (e instanceof InvalidTargetError || e instanceof URIError) {
      throw new BadRequestError(`Not a domain name: ${e.message}`);
    }
    throw e;
  }
}

/** The export routes, mounted on /api/report before the JSON report's. */
export function reportExportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:file{.+\\.(?:md|html)}", async (c) => {
    const { domain, format } = exportTarget(c.req.param("file"));
    c.header("Access-Control-Allow-Origin", "*");
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
  });
  return app;
}
