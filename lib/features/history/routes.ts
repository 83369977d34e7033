/** Every scan kept: the history, one kept scan and what changed, as JSON. lib/app/routes.ts lists it. */
import type { RouteDef } from "../../kit/web/route.ts";
import { changesRoute, historyRoute, keptScanRoute } from "./routes/api/report/history.ts";

/** The history feature's routes. */
export const HISTORY_ROUTES: readonly RouteDef[] = [historyRoute, keptScanRoute, changesRoute];
