/**
 * GET /compare?d=a.com&d=b.com: the compare page (lib/features/compare/views/compare_page.tsx) over the same
 * comparison as /api/compare.json (lib/features/compare/compare.ts). Without sites it shows the form; a
 * request it cannot answer (not a domain name, more than 5 sites) gets the form again with a
 * friendly message and a 400. Reads stored records only.
 */
import type { Context } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../kit/web/route.ts";
import { HttpError } from "../../../kit/errors.ts";
import { compareDomains, compareSites } from "../compare.ts";
import { ComparePage } from "../views/compare_page.tsx";
import { renderPage } from "../../../kit/web/render.tsx";
import { shellFor } from "../../../kit/web/shell.ts";
import { ASSETS, comparePagePath, PATHS } from "../../../kit/report_urls.ts";
import type { VNode } from "preact";

/** GET /compare (mounted by the services that compare sites). */
export const comparePageRoute: RouteDef = {
  path: PATHS.compare,
  viewsRecords: true,
  servedBy: (service) => service.comparesSites === true,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  const page = (c: Context<AppEnv>, title: string, body: VNode, status: 200 | 400, path: string) =>
    renderPage(
      c,
      {
        title,
        description: "The latest AI visibility reports of up to five sites, side by side.",
        canonical: `${siteOrigin(c, deps.config.trustProxy)}${path}`,
        noindex: status !== 200,
      },
      shellFor(c, deps, { styles: [ASSETS.reportCss] }),
      body,
      status,
    );
  app.GET = async (c) => {
    const raw = (c.req.queries("d") ?? []).map((v) => v.trim()).filter((v) => v !== "");
    if (raw.length === 0) {
      return page(
        c,
        "Compare sites",
        <ComparePage domains={[]} comparison={null} />,
        200,
        PATHS.compare,
      );
    }
    let domains: string[];
    try {
      domains = compareDomains(raw);
    } catch (e) {
      if (!(e instanceof HttpError) || e.status !== 400) throw e;
      const body = <ComparePage domains={[]} inputs={raw} comparison={null} error={e.message} />;
      return page(c, "Compare sites", body, 400, PATHS.compare);
    }
    const comparison = await compareSites(deps.store, domains);
    c.header("Cache-Control", "no-cache");
    return page(
      c,
      `Compare ${domains.join(", ")}`,
      <ComparePage domains={domains} comparison={comparison} />,
      200,
      comparePagePath(domains),
    );
  };
  return app;
}
