/**
 * GET /api/report/:domain/changes.atom: the public Atom feed of a domain's changes
 * (lib/watch/feed.ts), for any feed reader or automation. No credentials; public data only. A
 * domain never scanned is a 404 like its JSON history. `If-None-Match` with the feed's ETag is a
 * 304, so a reader polling an unchanged feed costs one small read.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../../lib/web/context.ts";
import { InvalidTargetError, normaliseTarget } from "../../../lib/scan/domain.ts";
import { BadRequestError, NotFoundError } from "../../../lib/errors.ts";
import { changesFeed } from "../../../lib/watch/feed.ts";
import { siteOrigin } from "../../../lib/ui/format.ts";
import { etagMatches } from "../../../lib/storage/report_cache.ts";

/** The feed route, mounted on /api/report before the other report routes. */
export function reportFeedRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:domain/changes.atom", async (c) => {
    let domain: string;
    try {
      domain = normaliseTarget(decodeURIComponent(c.req.param("domain"))).domain;
    } catch (e) {
      if (e instanceof InvalidTargetError || e instanceof URIError) {
        throw new BadRequestError(`Not a domain name: ${e.message}`);
      }
      throw e;
    }
    c.header("Access-Control-Allow-Origin", "*");
    const feed = await changesFeed(deps.store, domain, {
      origin: deps.config.publicUrl?.replace(/\/+$/, "") ?? siteOrigin(c, deps.config.trustProxy),
      title: deps.service.title,
    });
    if (!feed) throw new NotFoundError(`No kept scan of ${domain}`);
    c.header("ETag", feed.etag);
    c.header("Cache-Control", "no-cache");
    if (etagMatches(c.req.header("if-none-match") ?? null, feed.etag)) return c.body(null, 304);
    c.header("Content-Type", "application/atom+xml; charset=utf-8");
    return c.body(feed.xml, 200);
  });
  return app;
}
