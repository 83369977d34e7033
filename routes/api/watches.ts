/**
 * The watch list of an account, under its API key (`Authorization: Bearer uvk_...`; docs/watch.md):
 *   GET    /api/watches             the watches, the last deliveries and the limits
 *   POST   /api/watches             {url, schedule?, webhookUrl?, webhookFormat?, minScoreDrop?}
 *                                   -> 201 {watch, webhookSecret} (the secret is shown once)
 *   GET    /api/watches/:id         one watch and its last deliveries
 *   DELETE /api/watches/:id         removes it: it never runs or alerts again
 *   POST   /api/watches/:id/test    queues a signed test delivery ("watch.ping")
 * A JSON API: a body of another type is 415 (so a cross-site form post is never served).
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { BadRequestError, UnsupportedMediaTypeError } from "../../lib/errors.ts";
import { readJsonBody, zodMessage } from "../../lib/web/http_body.ts";
import { accountOfBearer } from "../../lib/watch/caller.ts";
import { watchOf } from "../../lib/watch/context.ts";
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
} from "../../lib/watch/watches.ts";
import { NotFoundError } from "../../lib/errors.ts";

/** Largest body of POST /api/watches. */
const MAX_WATCH_BODY = 8 * 1024;

/** The /api/watches routes. */
export function watchRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const w = watchOf(deps);
  const caller = (authorization: string | undefined) =>
    accountOfBearer(authorization, {
      store: deps.store,
      keyPrefix: deps.service.keyPrefix,
      now: deps.now,
    });
  app.use("*", async (c, next) => {
    const type = c.req.header("content-type");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && type && !/json/i.test(type)) {
      throw new UnsupportedMediaTypeError();
    }
    c.header("Cache-Control", "no-store");
    await next();
  });
  app.get("/", async (c) => {
    const { accountId } = await caller(c.req.header("authorization"));
    const [watches, deliveries] = await Promise.all([
      listWatches(w, accountId),
      recentDeliveries(w, accountId),
    ]);
    return c.json({
      watches: watches.map((x) => watchView(x, w.origin)),
      deliveries: deliveries.map(deliveryView),
      limits: { maxWatches: deps.config.watch.maxPerAccount, schedules: allowedSchedules(w) },
    });
  });
  app.post("/", async (c) => {
    const { accountId } = await caller(c.req.header("authorization"));
    const parsed = WatchRequestSchema.safeParse(await readJsonBody(c.req.raw, MAX_WATCH_BODY));
    if (!parsed.success) throw new BadRequestError(zodMessage(parsed.error));
    const { watch, webhookSecret } = await addWatch(w, accountId, parsed.data, "api");
    return c.json({ watch: watchView(watch, w.origin), webhookSecret }, 201);
  });
  app.get("/:id", async (c) => {
    const { accountId } = await caller(c.req.header("authorization"));
    const watch = (await w.watches.get(accountId, c.req.param("id"))).value;
    if (!watch) throw new NotFoundError("No such watch");
    const deliveries = (await recentDeliveries(w, accountId, 50))
      .filter((d) => d.watchId === watch.id);
    return c.json({ watch: watchView(watch, w.origin), deliveries: deliveries.map(deliveryView) });
  });
  app.delete("/:id", async (c) => {
    const { accountId } = await caller(c.req.header("authorization"));
    const removed = await removeWatch(w, accountId, c.req.param("id"));
    return c.json({ deleted: true, watch: watchView(removed, w.origin) });
  });
  app.post("/:id/test", async (c) => {
    const { accountId } = await caller(c.req.header("authorization"));
    const delivery = await sendTestDelivery(w, accountId, c.req.param("id"));
    return c.json({ delivery: deliveryView(delivery) }, 202);
  });
  return app;
}
