/**
 * Server logs over the API (docs/logs.md), for an account's API key; never anonymous:
 *   POST /api/logs/:domain[?format=ID]   the body is the log itself (plain or gzip; its
 *                                        Content-Length stated and at most LOG_UPLOAD_MAX_MB),
 *                                        streamed into a worker that reads it; its aggregates are
 *                                        added to the account's site. 200 {domain, read, report}
 *   GET  /api/logs/:domain               the site's report and its last reads
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { errorResponse } from "../../../../kit/web/openapi.ts";
import { crossSiteReason, CsrfError } from "../../../../kit/web/csrf.ts";
import { accountOfBearer } from "../../../../kit/auth/caller.ts";
import { logsOf } from "../../site_logs.ts";
import { FORMAT_IDS } from "../../formats.ts";
import { formatOf, ingestUpload, siteOf } from "../../upload.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** The account behind the request's API key (401 otherwise). */
async function accountOf(deps: AppDeps, c: Context<AppEnv>): Promise<string> {
  const { accountId } = await accountOfBearer(c.req.header("authorization"), {
    store: deps.store,
    keyPrefix: deps.service.keyPrefix,
    now: deps.now,
  });
  return accountId;
}

/** POST and GET /api/logs/:domain. */
export const logsRoute: RouteDef = {
  path: PATHS.logs,
  // The visibility service's: its report is about AI crawlers reading a site (lib/service.ts).
  servedBy: (service) => service.readsServerLogs === true,
  handlers: (deps) => ({
    POST: async (c) => {
      // A page of another site cannot send a key, but its post is refused before anything else
      // (tests/cross_site_test.ts): scripts and pipelines send no Sec-Fetch-Site.
      if (crossSiteReason(c, deps.config.trustProxy)) {
        throw new CsrfError("Cross-site posts are refused. Send the log with your API key.");
      }
      const accountId = await accountOf(deps, c);
      const domain = siteOf(param(c, "domain"));
      const format = formatOf(c.req.query("format"));
      c.header("Cache-Control", "no-store");
      return c.json(await ingestUpload(deps, c, accountId, domain, format));
    },
    GET: async (c) => {
      const accountId = await accountOf(deps, c);
      const domain = siteOf(param(c, "domain"));
      const logs = logsOf(deps);
      c.header("Cache-Control", "no-store");
      return c.json({
        domain,
        report: await logs.report(accountId, domain),
        reads: await logs.store.reads(accountId, domain),
      });
    },
  }),
  openapi: () => ({
    post: {
      operationId: "uploadLog",
      summary:
        "Read a server access log of a site (the account's): only crawler aggregates are kept",
      security: [{ bearer: [] }],
      parameters: [
        { name: "domain", in: "path", required: true, schema: { type: "string" } },
        {
          name: "format",
          in: "query",
          required: false,
          schema: { type: "string", enum: FORMAT_IDS },
        },
      ],
      requestBody: {
        required: true,
        content: {
          "text/plain": { schema: { type: "string" } },
          "application/gzip": { schema: { type: "string", format: "binary" } },
          "application/octet-stream": { schema: { type: "string", format: "binary" } },
        },
      },
      responses: {
        "200": { description: "{domain, read: the read's summary, report}" },
        "400": errorResponse("Not a domain, an unknown format or an empty body."),
        "401": errorResponse("No account API key."),
        "403": errorResponse("Posted from a page of another site."),
        "408": errorResponse("The log took too long to read."),
        "411": errorResponse("No Content-Length."),
        "413": errorResponse("Larger than LOG_UPLOAD_MAX_MB."),
        "503": errorResponse("The log readers are busy."),
      },
    },
    get: {
      operationId: "getLogReport",
      summary: "The report of a site's uploaded logs (the account's) and its last reads",
      security: [{ bearer: [] }],
      parameters: [{ name: "domain", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": { description: "{domain, report, reads}" },
        "400": errorResponse("Not a domain."),
        "401": errorResponse("No account API key."),
      },
    },
  }),
};
