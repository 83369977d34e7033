/** The server-log feature's routes (lib/app/routes.ts lists every feature's). */
import type { RouteDef } from "../../kit/web/route.ts";
import { logsRoute } from "./routes/api/logs.ts";
import {
  accountLogsRoute,
  accountLogUploadRoute,
  accountSiteLogsRoute,
} from "./routes/account/logs.tsx";

/** POST and GET /api/logs/{domain}; the account's pages: the list, a site's, an upload's progress. */
export const LOGS_ROUTES: readonly RouteDef[] = [
  logsRoute,
  accountLogsRoute,
  accountSiteLogsRoute,
  accountLogUploadRoute,
];
