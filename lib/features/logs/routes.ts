/** The server-log feature's routes (lib/app/routes.ts lists every feature's). */
import type { RouteDef } from "../../kit/web/route.ts";
import { logsRoute } from "./routes/api/logs.ts";

/** POST and GET /api/logs/{domain}. */
export const LOGS_ROUTES: readonly RouteDef[] = [logsRoute];
