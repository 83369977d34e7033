/**
 * A domain's kept scans (lib/storage/history.ts) as JSON, mounted under /api/report next to the
 * latest record (routes/api/report/[domain].ts):
 *   GET /api/report/:domain/history.json       the kept scans, newest first, with their links
 *   GET /api/report/:domain/scans/:id.json     one scan's record, forever (404 for an unknown id)
 *   GET /api/report/:domain/changes.json       what changed: the latest against the scan before
 *                                              it, or ?from=<id>&to=<id>
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../../lib/web/context.ts";
import { InvalidTargetError, normaliseTarget } from "../../../lib/net/target.ts";
import { BadRequestError, NotFoundError } from "../../../lib/errors.ts";
import { changesOf, historyOf, scanOf } from "../../../lib/history/service.ts";

/** The domain a path names, in its normal spelling, or a typed error. */
function domainParam(raw: string): string {
  try {
    return normaliseTarget(decodeURIComponent(raw)).domain;
  } catch (e) {
    if (e instanceof InvalidTargetError || e instanceof URIError) {
      throw new BadRequestError(`Not a domain name: ${e.message}`);
    }
    throw e;
  }
}

/** The /api/report/:domain/... history routes. */
export function reportHistoryRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.header("Access-Control-Allow-Origin", "*");
    await next();
  });
  app.get("/:domain/history.json", async (c) => {
    const domain = domainParam(c.req.param("domain"));
    const limitRaw = c.req.query("limit");
    const limit = limitRaw === undefined ? 1000 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new BadRequestError("limit must be a whole number from 1 to 10000");
    }
    const scans = await historyOf(deps.store, domain, limit);
    if (!scans.length) throw new NotFoundError(`No kept scan of ${domain}`);
    c.header("Cache-Control", "no-store");
    return c.json({ domain, scans });
  });
  app.get("/:domain/changes.json", async (c) => {
    const domain = domainParam(c.req.param("domain"));
    const diff = await changesOf(deps.store, domain, {
      from: c.req.query("from") || undefined,
      to: c.req.query("to") || undefined,
    });
    c.header("Cache-Control", "no-store");
    return c.json({ domain, changes: diff });
  });
  app.get("/:domain/scans/:file", async (c) => {
    const domain = domainParam(c.req.param("domain"));
    const file = c.req.param("file");
    if (!file.endsWith(".json")) throw new NotFoundError();
    const kept = await scanOf(deps.store, domain, file.slice(0, -5));
    // A kept scan never changes: it may be cached for good.
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("Content-Type", "application/json");
    return c.body(kept.json.slice().buffer, 200);
  });
  return app;
}
