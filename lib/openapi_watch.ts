/**
 * The watch feature's part of the OpenAPI document (lib/openapi.ts): the watch list under an
 * account's key (routes/api/watches.ts), the public Atom feed of a domain's changes and the SARIF
 * export (docs/watch.md, docs/ci.md).
 */
import type { z } from "zod";
import { WatchRequestSchema } from "./watch/watches.ts";

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
const id = {
  name: "id",
  in: "path",
  required: true,
  description: "The watch's id.",
  schema: { type: "string" },
};
const keyed = {
  security: [{ bearerAuth: [] }],
};
const refused = {
  "401": error("No key, or an unknown or revoked one: `Unauthorized`."),
  "403": error("A key that belongs to no account."),
};

/** The watch feature's paths. */
export function watchPaths(): Record<string, unknown> {
  return {
    "/api/watches": {
      get: {
        tags: ["watches"],
        operationId: "listWatches",
        summary: "The account's watches, its last webhook deliveries and the limits",
        ...keyed,
        responses: {
          "200": { description: "The watch list.", content: json("WatchList") },
          ...refused,
        },
      },
      post: {
        tags: ["watches"],
        operationId: "addWatch",
        summary: "Watch a domain (or a page, on the Schema Markup Generator) on a schedule",
        description: "Rescanned daily or weekly at a time of its own, in the account's pool; a " +
          "regression is sent to the https webhook, signed (Standard Webhooks headers " +
          "webhook-id, webhook-timestamp, webhook-signature). The signing secret is in this " +
          "answer only.",
        ...keyed,
        requestBody: { required: true, content: json("WatchRequest") },
        responses: {
          "201": { description: "Watched.", content: json("WatchCreated") },
          "400": error("A target or webhook that is not public, an http webhook, a bad schedule."),
          ...refused,
          "409": error("The account's cap is reached, or the target is watched already."),
          "415": error("Not JSON."),
        },
      },
    },
    "/api/watches/{id}": {
      get: {
        tags: ["watches"],
        operationId: "getWatch",
        summary: "One watch and its last deliveries",
        ...keyed,
        parameters: [id],
        responses: {
          "200": { description: "The watch.", content: json("WatchDetail") },
          ...refused,
          "404": error("Not a watch of this account."),
        },
      },
      delete: {
        tags: ["watches"],
        operationId: "removeWatch",
        summary: "Stop watching: it never runs or alerts again",
        ...keyed,
        parameters: [id],
        responses: {
          "200": { description: "Removed.", content: json("WatchRemoved") },
          ...refused,
          "404": error("Not a watch of this account."),
        },
      },
    },
    "/api/watches/{id}/test": {
      post: {
        tags: ["watches"],
        operationId: "testWatchWebhook",
        summary: "Queue a signed test delivery (watch.ping) to the watch's webhook",
        ...keyed,
        parameters: [id],
        responses: {
          "202": { description: "Queued: sent within a minute.", content: json("Object") },
          "400": error("The watch has no webhook."),
          ...refused,
          "404": error("Not a watch of this account."),
          "429": error("A test of this watch was queued less than 5 minutes ago (Retry-After)."),
        },
      },
    },
    "/api/report/{domain}/changes.atom": {
      get: {
        tags: ["history"],
        operationId: "getChangesFeed",
        summary: "An Atom feed of the domain's changes (public; for feed readers)",
        description: "One entry per kept scan that changed something against the scan before " +
          "it, newest first; regressions are titled and categorised as such. ETag and " +
          "If-None-Match (304). No credentials.",
        security: [{}],
        parameters: [domain],
        responses: {
          "200": {
            description: "The feed.",
            content: { "application/atom+xml": { schema: { type: "string" } } },
          },
          "304": { description: "Not changed since the ETag given." },
          "400": error("Not a domain name."),
          "404": error("Never scanned."),
        },
      },
    },
    "/api/report/{domain}.sarif": {
      get: {
        tags: ["scans"],
        operationId: "getReportSarif",
        summary: "The stored record as SARIF 2.1.0 (GitHub code scanning)",
        description: "Each failing or warning check is a result with its rule, level, message " +
          "and URL; each rule has the learn page's help text. Served as an attachment. No " +
          "credentials.",
        security: [{}],
        parameters: [domain],
        responses: {
          "200": {
            description: "The SARIF log.",
            content: { "application/sarif+json": { schema: { type: "object" } } },
          },
          "400": error("Not a domain name."),
          "404": error('Never scanned: `{"error":"Not found"}`.'),
        },
      },
    },
  };
}

const watch = {
  type: "object",
  required: ["id", "target", "domain", "schedule", "nextRunAt", "feed"],
  properties: {
    id: { type: "string" },
    target: { type: "string", description: "The domain, or the page URL (schema service)." },
    domain: { type: "string" },
    url: { type: ["string", "null"] },
    schedule: { enum: ["daily", "weekly"] },
    createdAt: { type: "string", format: "date-time" },
    nextRunAt: { type: "string", format: "date-time" },
    webhook: {
      type: ["object", "null"],
      properties: { format: { enum: ["json", "slack", "discord"] }, display: { type: "string" } },
    },
    minScoreDrop: { type: "integer" },
    baseline: { type: ["object", "null"] },
    lastRun: { type: ["object", "null"] },
    lastAlert: { type: ["object", "null"] },
    feed: { type: "string", description: "The domain's public Atom feed." },
  },
};
const delivery = {
  type: "object",
  properties: {
    id: { type: "string", description: "Also the webhook-id header." },
    watchId: { type: "string" },
    target: { type: "string" },
    event: { enum: ["watch.regression", "watch.ping"] },
    format: { enum: ["json", "slack", "discord"] },
    createdAt: { type: "string", format: "date-time" },
    state: { enum: ["pending", "delivered", "failed", "cancelled"] },
    attempts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          at: { type: "string", format: "date-time" },
          status: { type: ["integer", "null"] },
          answer: { type: "string" },
          ms: { type: "number" },
        },
      },
    },
    nextAttemptAt: { type: ["string", "null"], format: "date-time" },
  },
};

/** The watch feature's schemas. */
export function watchSchemas(
  toSchema: (s: z.ZodType, io: "input" | "output") => Record<string, unknown>,
): Record<string, unknown> {
  return {
    WatchRequest: toSchema(WatchRequestSchema, "input"),
    Watch: watch,
    Delivery: delivery,
    Object: { type: "object" },
    WatchList: {
      type: "object",
      properties: {
        watches: { type: "array", items: { $ref: "#/components/schemas/Watch" } },
        deliveries: { type: "array", items: { $ref: "#/components/schemas/Delivery" } },
        limits: { type: "object" },
      },
    },
    WatchCreated: {
      type: "object",
      properties: {
        watch: { $ref: "#/components/schemas/Watch" },
        webhookSecret: {
          type: ["string", "null"],
          description: "whsec_...: verifies webhook-signature; shown only here.",
        },
      },
    },
    WatchDetail: {
      type: "object",
      properties: {
        watch: { $ref: "#/components/schemas/Watch" },
        deliveries: { type: "array", items: { $ref: "#/components/schemas/Delivery" } },
      },
    },
    WatchRemoved: {
      type: "object",
      properties: { deleted: { const: true }, watch: { $ref: "#/components/schemas/Watch" } },
    },
  };
}
