/**
 * GET /openapi.json: the OpenAPI 3.1 document of this service, generated from the routes the app
 * mounted (each route's own OpenAPI entry and the zod schemas its handlers use, lib/kit/web/openapi.ts),
 * with this server as its server URL.
 */
import { type AppDeps, siteOrigin } from "../lib/kit/web/context.ts";
import { openApiDocument } from "../lib/kit/web/openapi.ts";
import type { MountedApp, RouteDef, RouteHandlers } from "../lib/kit/web/route.ts";
import { PATHS } from "../lib/kit/report_urls.ts";

/** GET /openapi.json. */
export const openApiRoute: RouteDef = {
  path: PATHS.openApi,
  handlers: (deps, mounted) => handlers(deps, mounted),
};

function handlers(deps: AppDeps, mounted: MountedApp): RouteHandlers {
  const app: RouteHandlers = {};
  const cache = new Map<string, string>();
  app.GET = (c) => {
    const origin = siteOrigin(c, deps.config.trustProxy);
    let body = cache.get(origin);
    if (!body) {
      body = JSON.stringify(
        openApiDocument({ routes: mounted.routes, deps, serverUrl: origin }),
        null,
        2,
      );
      if (cache.size < 8) cache.set(origin, body);
    }
    c.header("Content-Type", "application/json; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    c.header("Access-Control-Allow-Origin", "*");
    return c.body(body);
  };
  return app;
}
