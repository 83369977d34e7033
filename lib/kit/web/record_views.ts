/**
 * Views of stored records (report pages, kept scans, exports, comparisons, history) are the
 * expensive reads: each parses and renders up to a record's budget (1 MiB of JSON,
 * lib/kit/limits/record_budget.ts), a comparison five of them. They are admitted through one fair
 * queue per process (lib/kit/limits/fair_gate.ts): {@link RECORD_VIEWS} at once in all, two per
 * caller (an address, or an IPv6 /64; its /48 counts too), a short queue each and a 429 past it,
 * so twenty concurrent comparisons of large records cost five records at a time, not a hundred.
 * A route says it views records (lib/kit/web/route.ts RouteDef `viewsRecords`); cheap reads are not
 * queued (`GET /api/report/<domain>.json` sends the stored bytes as they are). The MCP tools and
 * the resource that read stored records (get_report, compare_scans, report://{domain}) wait in the
 * same queue (routes/mcp.ts).
 */
import type { MiddlewareHandler } from "hono";
import { FairGate } from "../limits/fair_gate.ts";
import type { AppEnv } from "./context.ts";

/** Record views in progress at once, in all. */
export const RECORD_VIEWS = 4;

/** The queue of record views: one per app, shared by the web routes and MCP. */
export type RecordViewGate = Pick<FairGate, "run">;

/** A new queue of record views (lib/app/app.ts makes one per app). */
export function createRecordViewGate(): FairGate {
  return new FairGate({
    concurrency: RECORD_VIEWS,
    perCaller: 2,
    maxQueued: 6,
    what: "report views",
    retryAfterSeconds: 2,
  });
}

/** The middleware that queues a route's record views in `gate`. */
export function recordViews(gate: RecordViewGate): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // HEAD renders what GET does; other methods are the route's 405.
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return await next();
    await gate.run(c.get("clientIp"), () => next());
  };
}
