/**
 * The history's part of the OpenAPI document (lib/openapi.ts): following a scan, a domain's kept
 * scans, one kept scan, and what changed. Schemas from lib/history/schemas.ts.
 */
import type { z } from "zod";
import {
  ChangesSchema,
  HistorySchema,
  ScanDiffSchema,
  ScanStatusSchema,
} from "./history/schemas.ts";

const json = (ref: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${ref}` } },
});
const error = (description: string) => ({ description, content: json("Error") });
const domain = {
  name: "domain",
  in: "path",
  required: true,
  description: "The domain, e.g. example.com.",
  schema: { type: "string" },
};
const id = (description: string) => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});

/** The history's paths. */
export function historyPaths(): Record<string, unknown> {
  return {
    "/api/scans/{id}": {
      get: {
        tags: ["scans"],
        operationId: "getScanStatus",
        summary: "Follow a scan: queued, running (with its step), done or failed",
        description: "The statusUrl of a 202 from POST /api/scan. Poll every 1-2 seconds until " +
          "status is done or failed; report then names this scan's own record, which never " +
          "changes (a forced rescan is followed to its own end while the old record is served).",
        security: [{}],
        parameters: [id("The scan's id (scanId of the 202).")],
        responses: {
          "200": { description: "Where the scan is.", content: json("ScanStatus") },
          "404": error("No such scan (or followed too long ago: statuses are kept a day)."),
        },
      },
    },
    "/api/report/{domain}/history.json": {
      get: {
        tags: ["scans"],
        operationId: "getHistory",
        summary: "The kept scans of a domain, newest first",
        security: [{}],
        parameters: [domain, {
          name: "limit",
          in: "query",
          required: false,
          description: "At most this many (1-10000, default 1000).",
          schema: { type: "integer", minimum: 1, maximum: 10000 },
        }],
        responses: {
          "200": { description: "The kept scans.", content: json("History") },
          "400": error("Not a domain name, or a bad limit."),
          "404": error("No kept scan of this domain."),
        },
      },
    },
    "/api/report/{domain}/scans/{id}.json": {
      get: {
        tags: ["scans"],
        operationId: "getScan",
        summary: "One kept scan's record, forever",
        security: [{}],
        parameters: [domain, id("The scan's id.")],
        responses: {
          "200": { description: "The record.", content: json("ScanRecord") },
          "404": error("No such scan of this domain."),
        },
      },
    },
    "/api/report/{domain}/changes.json": {
      get: {
        tags: ["scans"],
        operationId: "getChanges",
        summary: "What changed between two kept scans",
        description: "The latest scan against the one before it (of the same page, for the " +
          "schema service), or `from` against `to`.",
        security: [{}],
        parameters: [
          domain,
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
    },
  };
}

/** The history's component schemas, through `toSchema` (lib/openapi.ts jsonSchema). */
export function historySchemas(
  toSchema: (s: z.ZodType, io: "input" | "output") => Record<string, unknown>,
): Record<string, unknown> {
  return {
    ScanStatus: toSchema(ScanStatusSchema, "output"),
    History: toSchema(HistorySchema, "output"),
    ScanDiff: toSchema(ScanDiffSchema, "output"),
    Changes: toSchema(ChangesSchema, "output"),
  };
}
