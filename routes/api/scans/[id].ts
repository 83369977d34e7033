/**
 * GET /api/scans/:id: where a scan is (queued, running with its current step, done or failed with
 * the link of its own record). The status URL the 202 of POST /api/scan names.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../../lib/web/context.ts";
import { scanStatusOf } from "../../../lib/history/service.ts";

/** The /api/scans routes. */
export function scanStatusRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:id", async (c) => {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Cache-Control", "no-store");
    return c.json(await scanStatusOf(deps.store, c.req.param("id")));
  });
  return app;
}
