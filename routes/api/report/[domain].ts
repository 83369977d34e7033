/** GET /api/report/:domain.json: the stored record, with an ETag so pollers get cheap 304s. */
import { Hono } from "hono";
import { allowOnly, type AppDeps, type AppEnv } from "../../../lib/app.ts";
import { InvalidTargetError, normaliseTarget } from "../../../lib/domain.ts";
import { BadRequestError, NotFoundError } from "../../../lib/errors.ts";

/** The /api/report routes. */
export function reportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:file", async (c) => {
    const file = c.req.param("file");
    if (!file.endsWith(".json") || file.length <= 5) throw new NotFoundError();
    let domain: string;
    try {
      domain = normaliseTarget(decodeURIComponent(file.slice(0, -5))).domain;
    } catch (e) {
      if (e instanceof InvalidTargetError || e instanceof URIError) {
        throw new BadRequestError(`Not a domain name: ${e.message}`);
      }
      throw e;
    }
    const stored = await deps.store.getScan(domain);
    c.header("Access-Control-Allow-Origin", "*");
    if (!stored) {
      c.header("Cache-Control", "no-store");
      throw new NotFoundError();
    }
    const etag = `"${domain}-${Date.parse(stored.record.scannedAt).toString(36)}"`;
    c.header("ETag", etag);
    c.header("Cache-Control", "public, max-age=0, must-revalidate");
    const inm = c.req.header("if-none-match");
    if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      return c.body(null, 304);
    }
    return c.json(stored.record, 200);
  });
  allowOnly(app, "/:file", ["GET", "HEAD"]);
  return app;
}
