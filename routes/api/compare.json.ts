/**
 * GET /api/compare.json?d=a.com&d=b.com: the latest stored records of up to 5 domains side by
 * side (lib/compare/compare.ts). Reads stored records only; a domain never scanned is listed with
 * status "not_scanned". No credentials. Served by the services that compare sites.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { compareDomains, compareSites } from "../../lib/compare/compare.ts";

/** The /api/compare.json route. */
export function compareJsonRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Cache-Control", "no-cache");
    const domains = compareDomains(c.req.queries("d") ?? []);
    return c.json(await compareSites(deps.store, domains));
  });
  return app;
}
