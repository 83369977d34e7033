/**
 * GET /badge/:domain.svg: the SVG badge of a domain's latest record (score and grade, or the
 * schema findings), "not scanned" with a 404 status for a domain never scanned. Cached briefly
 * so a README shows a new score within minutes.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { PATHS } from "../../../../kit/report_urls.ts";
import { badgeFor, renderBadge } from "../../../../kit/ui/badge.ts";
import { normaliseTarget } from "../../../../kit/net/target.ts";

/** GET /badge/:domain.svg. */
export const badgeRoute: RouteDef = {
  path: PATHS.badge,
  handlers: (deps) => ({ GET: (c) => badge(c, deps) }),
  openapi: () => ({
    get: {
      tags: ["scans"],
      operationId: "getBadge",
      summary: "An SVG badge of the domain's latest result",
      security: [{}],
      parameters: [{ name: "domain", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": {
          description: "The badge.",
          content: { "image/svg+xml": { schema: { type: "string" } } },
        },
        "404": {
          description: 'A "not scanned" badge.',
          content: { "image/svg+xml": { schema: { type: "string" } } },
        },
      },
    },
  }),
};

async function badge(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  // The parameter keeps its ".svg" (lib/kit/web/route.ts honoPath).
  const file = param(c, "domain");
  let domain: string | null = null;
  if (file.endsWith(".svg") && file.length > 4) {
    try {
      domain = normaliseTarget(file.slice(0, -4)).domain;
    } catch {
      domain = null;
    }
  }
  const stored = domain ? await deps.store.getScan(domain) : null;
  const svg = renderBadge(badgeFor(deps.service, stored?.record ?? null));
  c.header("Content-Type", "image/svg+xml; charset=utf-8");
  c.header("Cache-Control", stored ? "public, max-age=300" : "public, max-age=60");
  c.header("Access-Control-Allow-Origin", "*");
  return c.body(svg, stored ? 200 : 404);
}
