/**
 * GET /api/compare.json?d=a.com&d=b.com: the latest stored records of up to 5 domains side by
 * side (lib/features/compare/compare.ts). Reads stored records only; a domain never scanned is listed with
 * status "not_scanned". No credentials. Served by the services that compare sites.
 */
import type { RouteDef } from "../../../../kit/web/route.ts";
import {
  COMPARE_MAX_SITES,
  compareDomains,
  compareSites,
  ComparisonSchema,
} from "../../compare.ts";
import { PATHS } from "../../../../kit/report_urls.ts";
import { errorResponse, json } from "../../../../kit/web/openapi.ts";

/** GET /api/compare.json (mounted by the services that compare sites). */
export const compareJsonRoute: RouteDef = {
  path: PATHS.compareJson,
  viewsRecords: true,
  servedBy: (service) => service.comparesSites === true,
  handlers: (deps) => ({
    GET: async (c) => {
      c.header("Access-Control-Allow-Origin", "*");
      c.header("Cache-Control", "no-cache");
      const domains = compareDomains(c.req.queries("d") ?? []);
      return c.json(await compareSites(deps.store, domains));
    },
  }),
  schemas: () => ({ Comparison: { schema: ComparisonSchema, io: "output" } }),
  openapi: () => compareOperation(),
};

/** The OpenAPI operation of GET /api/compare.json: stored records side by side. */
function compareOperation(): Record<string, unknown> {
  return {
    get: {
      tags: ["scans"],
      operationId: "compareSites",
      summary: `The latest stored records of up to ${COMPARE_MAX_SITES} sites, side by side`,
      description: "Score and grade, each pillar's score per site, and each issue with the sites " +
        "that have it and those that do not. Reads stored records only: it starts no scan, and " +
        'a site never scanned is listed with status "not_scanned". No credentials.',
      security: [{}],
      parameters: [{
        name: "d",
        in: "query",
        required: true,
        description: `A domain or URL; repeat it (or separate with commas) for up to ` +
          `${COMPARE_MAX_SITES} sites.`,
        style: "form",
        explode: true,
        schema: { type: "array", items: { type: "string" }, minItems: 1 },
      }],
      responses: {
        "200": { description: "The comparison.", content: json("Comparison") },
        "400": errorResponse(
          `No site, more than ${COMPARE_MAX_SITES} sites, or one that is not a domain name.`,
        ),
      },
    },
  };
}
