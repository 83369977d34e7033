/**
 * GET /badge/:domain.svg: the SVG badge of a domain's latest record (score and grade, or the
 * schema findings), "not scanned" with a 404 status for a domain never scanned. Cached briefly
 * so a README shows a new score within minutes.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { badgeFor, renderBadge } from "../../lib/badge.ts";
import { normaliseTarget } from "../../lib/net/target.ts";

/** The /badge routes. */
export function badgeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:file", async (c) => {
    const file = c.req.param("file");
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
  });
  return app;
}
