/**
 * GET /api/report/:domain/changes.atom: the public Atom feed of a domain's changes
 * (lib/features/watch/feed.ts), for any feed reader or automation. No credentials; public data only. A
 * domain never scanned is a 404 like its JSON history. `If-None-Match` with the feed's ETag is a
 * 304, so a reader polling an unchanged feed costs one small read.
 */
import { siteOrigin } from "../../../../../kit/web/context.ts";
import { anyOrigin, domainParam, type RouteDef } from "../../../../../kit/web/route.ts";
import { NotFoundError } from "../../../../../kit/errors.ts";
import { changesFeed } from "../../../feed.ts";
import { etagMatches } from "../../../../../kit/storage/report_cache.ts";
import { DOMAIN_PARAMETER, errorResponse } from "../../../../../kit/web/openapi.ts";
import { PATHS } from "../../../../../kit/report_urls.ts";
import { charsOf, trimEnd } from "../../../../../kit/text/trim.ts";

/** GET /api/report/:domain/changes.atom: the changes feed. */
export const changesFeedRoute: RouteDef = {
  path: PATHS.changesFeed,
  viewsRecords: true,
  use: [anyOrigin],
  handlers: (deps) => ({
    GET: async (c) => {
      const domain = domainParam(c);
      const feed = await changesFeed(deps.store, domain, {
        origin: deps.config.publicUrl != null
          ? trimEnd(deps.config.publicUrl, charsOf("/"))
          : siteOrigin(c, deps.config.trustProxy),
        title: deps.service.title,
      });
      if (!feed) throw new NotFoundError(`No kept scan of ${domain}`);
      c.header("ETag", feed.etag);
      c.header("Cache-Control", "no-cache");
      if (etagMatches(c.req.header("if-none-match") ?? null, feed.etag)) {
        return c.body(null, 304);
      }
      c.header("Content-Type", "application/atom+xml; charset=utf-8");
      return c.body(feed.xml, 200);
    },
  }),
  openapi: () => ({
    get: {
      tags: ["history"],
      operationId: "getChangesFeed",
      summary: "An Atom feed of the domain's changes (public; for feed readers)",
      description: "One entry per kept scan that changed something against the scan before " +
        "it, newest first; regressions are titled and categorised as such. ETag and " +
        "If-None-Match (304). No credentials.",
      security: [{}],
      parameters: [DOMAIN_PARAMETER],
      responses: {
        "200": {
          description: "The feed.",
          content: { "application/atom+xml": { schema: { type: "string" } } },
        },
        "304": { description: "Not changed since the ETag given." },
        "400": errorResponse("Not a domain name."),
        "404": errorResponse("Never scanned."),
      },
    },
  }),
};
