/**
 * GET /api/report/:domain/page.json?url=...: the latest record of one page of a domain, for a
 * service that scans pages (the schema service). Additive to the specification, whose
 * GET /api/report/:domain.json stays the domain's record (the last page scanned): this one answers
 * the same ScanRecord for the page named, whatever page was scanned last, from the kept scans.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../../../kit/web/context.ts";
import { anyOrigin, domainParam, type RouteDef } from "../../../../../../kit/web/route.ts";
import { PATHS } from "../../../../../../kit/report_urls.ts";
import { DOMAIN_PARAMETER, errorResponse, json } from "../../../../../../kit/web/openapi.ts";
import { InvalidTargetError, normaliseTarget } from "../../../../../../kit/net/target.ts";
import { BadRequestError, NotFoundError } from "../../../../../../kit/errors.ts";
import { latestOfPage } from "../../../../../../engines/history/service.ts";

/** GET /api/report/:domain/page.json?url=... */
export const pageReportJsonRoute: RouteDef = {
  path: PATHS.pageReportJson,
  use: [anyOrigin],
  servedBy: (service) => service.watchTarget === "page",
  handlers: (deps) => ({ GET: (c) => pageJson(c, deps) }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getPageReport",
      summary: "The latest record of one page of a domain",
      description:
        "No credentials. Additive: the domain's record (GET /api/report/{domain}.json) " +
        "is the last page scanned on it; this answers the latest kept scan of the page `url` " +
        "names, so two pages of one domain keep a record each.",
      security: [{}],
      parameters: [DOMAIN_PARAMETER, {
        name: "url",
        in: "query",
        required: true,
        description: "The page, as scanned (e.g. `https://example.com/blog/post`); it must be " +
          "on the domain of the path.",
        schema: { type: "string" },
      }],
      responses: {
        "200": { description: "The page's latest record.", content: json("ScanRecord") },
        "400": errorResponse("Not a domain name, no `url`, or a page of another domain."),
        "404": errorResponse("That page was never scanned (or its scans are no longer kept)."),
      },
    },
  }),
};

async function pageJson(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const domain = domainParam(c);
  const asked = c.req.query("url");
  if (!asked) throw new BadRequestError("url is required: the page whose record to read");
  let url: string;
  try {
    const t = normaliseTarget(asked);
    if (t.domain !== domain) {
      throw new BadRequestError(`url is a page of ${t.domain}, not ${domain}`);
    }
    url = t.pageUrl ?? t.url;
  } catch (e) {
    if (e instanceof InvalidTargetError) throw new BadRequestError(`url: ${e.message}`);
    throw e;
  }
  c.header("Cache-Control", "no-store");
  const stored = await deps.store.getScan(domain);
  const record = (stored?.record as { url?: unknown } | undefined)?.url === url && stored
    ? stored.record
    : (await latestOfPage(deps.store, domain, url))?.record;
  if (!record) throw new NotFoundError();
  return c.json(record, 200);
}
