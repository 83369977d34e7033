/**
 * GET /api/scans/:id: where a scan is (queued, running with its current step, done or failed with
 * the link of its own record). The status URL the 202 of POST /api/scan names.
 */
import { param, type RouteDef } from "../../../../../kit/web/route.ts";
import { scanStatusOf } from "../../../../../engines/history/service.ts";
import { ScanStatusSchema } from "../../../../../engines/history/schemas.ts";
import { PATHS } from "../../../../../kit/report_urls.ts";
import { errorResponse as error, json } from "../../../../../kit/web/openapi.ts";

/** GET /api/scans/:id. */
export const scanStatusRoute: RouteDef = {
  path: PATHS.scanStatus,
  handlers: (deps) => ({
    GET: async (c) => {
      c.header("Access-Control-Allow-Origin", "*");
      c.header("Cache-Control", "no-store");
      return c.json(await scanStatusOf(deps.store, param(c, "id")));
    },
  }),
  schemas: () => ({ ScanStatus: { schema: ScanStatusSchema, io: "output" } }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getScanStatus",
      summary: "Follow a scan: queued, running (with its step), done or failed",
      description: "The statusUrl of a 202 from POST /api/scan. Poll every 1-2 seconds until " +
        "status is done or failed; report then names this scan's own record, which never " +
        "changes (a forced rescan is followed to its own end while the old record is served).",
      security: [{}],
      parameters: [{
        name: "id",
        in: "path",
        required: true,
        description: "The scan's id (scanId of the 202).",
        schema: { type: "string" },
      }],
      responses: {
        "200": { description: "Where the scan is.", content: json("ScanStatus") },
        "404": error("No such scan (or followed too long ago: statuses are kept a day)."),
      },
    },
  }),
};
