/**
 * A domain's kept scans (lib/kit/storage/history.ts) as JSON, beside the latest record
 * (lib/features/report/routes/api/report/[domain].ts):
 *   GET /api/report/:domain/history.json       the kept scans, newest first, with their links
 *   GET /api/report/:domain/scans/:id.json     one scan's record, forever (404 for an unknown id)
 *   GET /api/report/:domain/changes.json       what changed: the latest against the scan before
 *                                              it, or ?from=<id>&to=<id>
 * Schemas from lib/engines/history/schemas.ts.
 */
import { anyOrigin, domainParam, param, type RouteDef } from "../../../../../kit/web/route.ts";
import { BadRequestError, NotFoundError } from "../../../../../kit/errors.ts";
import { changesOf, historyOf, scanOf } from "../../../../../engines/history/service.ts";
import {
  ChangesSchema,
  HistorySchema,
  ScanDiffSchema,
} from "../../../../../engines/history/schemas.ts";
import { PATHS } from "../../../../../kit/report_urls.ts";
import { InvalidTargetError, normaliseTarget } from "../../../../../kit/net/target.ts";
import { DOMAIN_PARAMETER, errorResponse as error, json } from "../../../../../kit/web/openapi.ts";

const id = (description: string) => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});

/** GET /api/report/:domain/history.json. */
export const historyRoute: RouteDef = {
  path: PATHS.history,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({
    GET: async (c) => {
      const domain = domainParam(c);
      const limitRaw = c.req.query("limit");
      const limit = limitRaw === undefined ? 1000 : Number(limitRaw);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        throw new BadRequestError("limit must be a whole number from 1 to 10000");
      }
      let scans = await historyOf(deps.store, domain, limit);
      // Additive: `?url=` keeps the scans of one page (a service that scans pages).
      const page = c.req.query("url");
      if (page !== undefined) {
        let url: string;
        try {
          const t = normaliseTarget(page);
          url = t.pageUrl ?? t.url;
        } catch (e) {
          if (e instanceof InvalidTargetError) throw new BadRequestError(`url: ${e.message}`);
          throw e;
        }
        scans = scans.filter((s) => s.url === url);
      }
      if (!scans.length) throw new NotFoundError(`No kept scan of ${page ?? domain}`);
      c.header("Cache-Control", "no-store");
      return c.json({ domain, scans });
    },
  }),
  schemas: () => ({ History: { schema: HistorySchema, io: "output" } }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getHistory",
      summary: "The kept scans of a domain, newest first",
      security: [{}],
      parameters: [DOMAIN_PARAMETER, {
        name: "limit",
        in: "query",
        required: false,
        description: "At most this many (1-10000, default 1000).",
        schema: { type: "integer", minimum: 1, maximum: 10000 },
      }, {
        name: "url",
        in: "query",
        required: false,
        description: "Only the scans of this page (the Schema Markup Generator keeps a history " +
          "per page), among the newest `limit` of the domain.",
        schema: { type: "string" },
      }],
      responses: {
        "200": { description: "The kept scans.", content: json("History") },
        "400": error("Not a domain name, or a bad limit."),
        "404": error("No kept scan of this domain."),
      },
    },
  }),
};

/** GET /api/report/:domain/changes.json. */
export const changesRoute: RouteDef = {
  path: PATHS.changes,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({
    GET: async (c) => {
      const domain = domainParam(c);
      const diff = await changesOf(deps.store, domain, {
        from: c.req.query("from") || undefined,
        to: c.req.query("to") || undefined,
      });
      c.header("Cache-Control", "no-store");
      return c.json({ domain, changes: diff });
    },
  }),
  schemas: () => ({
    ScanDiff: { schema: ScanDiffSchema, io: "output" },
    Changes: { schema: ChangesSchema, io: "output" },
  }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getChanges",
      summary: "What changed between two kept scans",
      description: "The latest scan against the one before it (of the same page, for the " +
        "schema service), or `from` against `to`.",
      security: [{}],
      parameters: [
        DOMAIN_PARAMETER,
        ...["from", "to"].map((name) => ({
          name,
          in: "query",
          required: false,
          description: `The ${name === "from" ? "earlier" : "later"} scan's id.`,
          schema: { type: "string" },
        })),
      ],
      responses: {
        "200": { description: "The changes.", content: json("Changes") },
        "404": error("No kept scan of this domain, or an unknown id."),
      },
    },
  }),
};

/** GET /api/report/:domain/scans/:id.json. */
export const keptScanRoute: RouteDef = {
  path: PATHS.keptScanJson,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({
    GET: async (c) => {
      const domain = domainParam(c);
      // The parameter keeps its ".json" (lib/kit/web/route.ts honoPath).
      const file = param(c, "id");
      if (!file.endsWith(".json")) throw new NotFoundError();
      const kept = await scanOf(deps.store, domain, file.slice(0, -5));
      // A kept scan never changes: it may be cached for good.
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      c.header("Content-Type", "application/json");
      return c.body(kept.json.slice().buffer, 200);
    },
  }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getScan",
      summary: "One kept scan's record, forever",
      security: [{}],
      parameters: [DOMAIN_PARAMETER, id("The scan's id.")],
      responses: {
        "200": { description: "The record.", content: json("ScanRecord") },
        "404": error("No such scan of this domain."),
      },
    },
  }),
};
