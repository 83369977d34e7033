/**
 * The watch list of an account, under its API key (`Authorization: Bearer uvk_...`; docs/watch.md):
 *   GET    /api/watches             the watches, the last deliveries and the limits
 *   POST   /api/watches             {url, schedule?, webhookUrl?, webhookFormat?, minScoreDrop?}
 *                                   -> 201 {watch, webhookSecret} (the secret is shown once)
 *   GET    /api/watches/:id         one watch and its last deliveries
 *   DELETE /api/watches/:id         removes it: it never runs or alerts again
 *   POST   /api/watches/:id/test    queues a signed test delivery ("watch.ping")
 *   POST   /api/watches/:id/run     starts the watch's scan now (its owner's key, or the
 *                                   operator's PIPELINE_TOKEN for any watch): 202
 * Creating and removing watches is rate limited per account and per address (429, Retry-After).
 * A JSON API: a body of another type is 415 (so a cross-site form post is never served).
 */
import { jsonApi, type OpenApiSchema, param, type RouteDef } from "../../../../kit/web/route.ts";
import { BadRequestError, NotFoundError } from "../../../../kit/errors.ts";
import { readJsonBody, zodMessage } from "../../../../kit/web/http_body.ts";
import { errorResponse, json } from "../../../../kit/web/openapi.ts";
import { accountOfBearer } from "../../../../kit/auth/caller.ts";
import { digestsEqual, sha256Digest } from "../../../../kit/auth/crypto.ts";
import { UnauthorizedError } from "../../../../kit/errors.ts";
import { PATHS, scanStatusPath } from "../../../../kit/report_urls.ts";
import { linkOrigin, type WatchAppDeps, watchOf } from "../../context.ts";
import { type RunNowCaller, runWatchNow } from "../../run_now.ts";
import {
  addWatch,
  allowedSchedules,
  deliveryView,
  listWatches,
  recentDeliveries,
  removeWatch,
  sendTestDelivery,
  WatchRequestSchema,
  watchView,
} from "../../watches.ts";

/** Largest body of POST /api/watches. */
const MAX_WATCH_BODY = 8 * 1024;

/** The account whose key the request carries (401/403 otherwise). */
function callerOf(deps: WatchAppDeps, authorization: string | undefined) {
  return accountOfBearer(authorization, {
    store: deps.store,
    keyPrefix: deps.service.keyPrefix,
    now: deps.now,
  });
}

/** GET and POST /api/watches: the list, and a new watch. */
export const watchesRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.watches,
  use: [jsonApi],
  handlers: (deps) => {
    const w = watchOf(deps);
    return {
      GET: async (c) => {
        const { accountId } = await callerOf(deps, c.req.header("authorization"));
        const [watches, deliveries] = await Promise.all([
          listWatches(w, accountId),
          recentDeliveries(w, accountId),
        ]);
        return c.json({
          watches: watches.map((x) => watchView(x, linkOrigin(w, c))),
          deliveries: deliveries.map(deliveryView),
          limits: { maxWatches: deps.config.watch.maxPerAccount, schedules: allowedSchedules(w) },
        });
      },
      POST: async (c) => {
        const { accountId } = await callerOf(deps, c.req.header("authorization"));
        const parsed = WatchRequestSchema.safeParse(
          await readJsonBody(c.req.raw, MAX_WATCH_BODY),
        );
        if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
        const { watch, webhookSecret } = await addWatch(
          w,
          accountId,
          parsed.data,
          "api",
          c.get("clientIp") ?? null,
        );
        return c.json({ watch: watchView(watch, linkOrigin(w, c)), webhookSecret }, 201);
      },
    };
  },
  openapi: () => ({
    get: {
      tags: ["watches"],
      operationId: "listWatches",
      summary: "The account's watches, its last webhook deliveries and the limits",
      ...KEYED,
      responses: {
        "200": { description: "The watch list.", content: json("WatchList") },
        ...REFUSED,
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
      ...KEYED,
      requestBody: { required: true, content: json("WatchRequest") },
      responses: {
        "201": { description: "Watched.", content: json("WatchCreated") },
        "400": errorResponse(
          "A target or webhook that is not public, an http webhook, a bad schedule.",
        ),
        ...REFUSED,
        "409": errorResponse("The account's cap is reached, or the target is watched already."),
        "415": errorResponse("Not JSON."),
        "429": errorResponse(
          "Too many watches created or removed this hour, by the account or from the address " +
            "(Retry-After).",
        ),
      },
    },
  }),
  schemas: () => WATCH_SCHEMAS,
};

/** GET and DELETE /api/watches/:id: one watch, and stopping it. */
export const watchRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.watch,
  use: [jsonApi],
  handlers: (deps) => {
    const w = watchOf(deps);
    return {
      GET: async (c) => {
        const { accountId } = await callerOf(deps, c.req.header("authorization"));
        const watch = (await w.watches.get(accountId, param(c, "id"))).value;
        if (!watch) throw new NotFoundError("No such watch");
        const deliveries = (await recentDeliveries(w, accountId, 50))
          .filter((d) => d.watchId === watch.id);
        return c.json({
          watch: watchView(watch, linkOrigin(w, c)),
          deliveries: deliveries.map(deliveryView),
        });
      },
      DELETE: async (c) => {
        const { accountId } = await callerOf(deps, c.req.header("authorization"));
        const removed = await removeWatch(w, accountId, param(c, "id"), c.get("clientIp") ?? null);
        return c.json({ deleted: true, watch: watchView(removed, linkOrigin(w, c)) });
      },
    };
  },
  openapi: () => ({
    get: {
      tags: ["watches"],
      operationId: "getWatch",
      summary: "One watch and its last deliveries",
      ...KEYED,
      parameters: [ID_PARAMETER],
      responses: {
        "200": { description: "The watch.", content: json("WatchDetail") },
        ...REFUSED,
        "404": errorResponse("Not a watch of this account."),
      },
    },
    delete: {
      tags: ["watches"],
      operationId: "removeWatch",
      summary: "Stop watching: it never runs or alerts again",
      ...KEYED,
      parameters: [ID_PARAMETER],
      responses: {
        "200": { description: "Removed.", content: json("WatchRemoved") },
        ...REFUSED,
        "404": errorResponse("Not a watch of this account."),
        "429": errorResponse("Too many watches created or removed this hour (Retry-After)."),
      },
    },
  }),
};

/** POST /api/watches/:id/test: a signed test delivery to the watch's webhook. */
export const watchTestRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.watchTest,
  use: [jsonApi],
  handlers: (deps) => {
    const w = watchOf(deps);
    return {
      POST: async (c) => {
        const { accountId } = await callerOf(deps, c.req.header("authorization"));
        const delivery = await sendTestDelivery(w, accountId, param(c, "id"));
        return c.json({ delivery: deliveryView(delivery) }, 202);
      },
    };
  },
  openapi: () => ({
    post: {
      tags: ["watches"],
      operationId: "testWatchWebhook",
      summary: "Queue a signed test delivery (watch.ping) to the watch's webhook",
      ...KEYED,
      parameters: [ID_PARAMETER],
      responses: {
        "202": { description: "Queued: sent within a minute.", content: json("Object") },
        "400": errorResponse("The watch has no webhook."),
        ...REFUSED,
        "404": errorResponse("Not a watch of this account."),
        "429": errorResponse(
          "A test of this watch was queued less than 5 minutes ago (Retry-After).",
        ),
      },
    },
  }),
};

/**
 * Who asks a watch to run now: the operator (PIPELINE_TOKEN, any watch) or the account whose key
 * the request carries (its own watches). @throws UnauthorizedError (401), 403 for a loose key.
 */
async function runCallerOf(
  deps: WatchAppDeps,
  authorization: string | undefined,
): Promise<RunNowCaller> {
  const token = authorization?.match(/^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i)?.[1];
  if (!token) throw new UnauthorizedError();
  const pipeline = deps.config.pipelineToken;
  if (pipeline && digestsEqual(sha256Digest(token).bytes, sha256Digest(pipeline).bytes)) {
    return { kind: "operator" };
  }
  const { accountId } = await callerOf(deps, authorization);
  return { kind: "owner", accountId };
}

/** POST /api/watches/:id/run: the watch's scan, now. */
export const watchRunRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.watchRun,
  use: [jsonApi],
  handlers: (deps) => {
    const w = watchOf(deps);
    return {
      POST: async (c) => {
        const caller = await runCallerOf(deps, c.req.header("authorization"));
        const started = await runWatchNow(w, param(c, "id"), caller);
        const statusUrl = scanStatusPath(started.scanId);
        c.header("Location", statusUrl);
        return c.json({
          watch: watchView(started.watch, linkOrigin(w, c)),
          scanId: started.scanId,
          joined: started.joined,
          statusUrl,
        }, 202);
      },
    };
  },
  openapi: () => ({
    post: {
      tags: ["watches"],
      operationId: "runWatchNow",
      summary: "Start the watch's scan now (its owner, or the operator with PIPELINE_TOKEN)",
      description: "Queued at once on the scan queue and compared with the watch's last scan " +
        "when it ends (a regression alerts as usual). The owner's run counts in the account's " +
        "scan pool and may be asked once per watch every 10 minutes; a scan of the target " +
        "already in flight is joined. Follow statusUrl (GET /api/scans/{id}).",
      ...KEYED,
      parameters: [ID_PARAMETER],
      responses: {
        "202": { description: "Started (or joined).", content: json("Object") },
        ...REFUSED,
        "404": errorResponse("Not a watch of this account (or no such watch)."),
        "429": errorResponse("Run less than 10 minutes ago, or a scan pool is full (Retry-After)."),
      },
    },
  }),
};

const KEYED = { security: [{ bearerAuth: [] }] };
const REFUSED = {
  "401": errorResponse("No key, or an unknown or revoked one: `Unauthorized`."),
  "403": errorResponse("A key that belongs to no account."),
};
const ID_PARAMETER = {
  name: "id",
  in: "path",
  required: true,
  description: "The watch's id.",
  schema: { type: "string" },
};

const WATCH = {
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
const DELIVERY = {
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
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The component schemas of the watch API. */
const WATCH_SCHEMAS: Record<string, OpenApiSchema> = {
  WatchRequest: { schema: WatchRequestSchema, io: "input" },
  Watch: { json: WATCH },
  Delivery: { json: DELIVERY },
  Object: { json: { type: "object" } },
  WatchList: {
    json: {
      type: "object",
      properties: {
        watches: { type: "array", items: ref("Watch") },
        deliveries: { type: "array", items: ref("Delivery") },
        limits: { type: "object" },
      },
    },
  },
  WatchCreated: {
    json: {
      type: "object",
      properties: {
        watch: ref("Watch"),
        webhookSecret: {
          type: ["string", "null"],
          description: "whsec_...: verifies webhook-signature; shown only here.",
        },
      },
    },
  },
  WatchDetail: {
    json: {
      type: "object",
      properties: {
        watch: ref("Watch"),
        deliveries: { type: "array", items: ref("Delivery") },
      },
    },
  },
  WatchRemoved: {
    json: {
      type: "object",
      properties: { deleted: { const: true }, watch: ref("Watch") },
    },
  },
};
