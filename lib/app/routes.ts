/**
 * Every route of the program, in one list: each feature's list (lib/features/<name>/routes.ts),
 * then the routes that belong to no feature (routes/: home, docs, MCP, challenge, OpenAPI, health,
 * static files). Each entry is a route module's own definition of one path (lib/kit/web/route.ts
 * RouteDef: its path, handlers, OpenAPI entry, which services serve it). Mounting (lib/app/app.ts),
 * the route groups (lib/kit/web/groups.ts), the 405 answers (lib/kit/web/methods.ts) and the OpenAPI
 * document (lib/kit/web/openapi.ts, GET /openapi.json) all read it; adding a route is a module in its
 * feature's routes/ folder and one line in that feature's list.
 */
import type { RouteDef } from "../kit/web/route.ts";
import type { ServerDeps } from "./deps.ts";
import { REPORT_ROUTES } from "../features/report/routes.ts";
import { HISTORY_ROUTES } from "../features/history/routes.ts";
import { WATCH_ROUTES } from "../features/watch/routes.ts";
import { ANSWERS_ROUTES } from "../features/answers/routes.ts";
import { LOGS_ROUTES } from "../features/logs/routes.ts";
import { COMPARE_ROUTES } from "../features/compare/routes.ts";
import { VALIDATE_ROUTES } from "../features/validate/routes.ts";
import { LEARN_ROUTES } from "../features/learn/routes.ts";
import { ACCOUNTS_ROUTES } from "../features/accounts/routes.ts";
import { mcpRoute } from "../../routes/mcp.ts";
import { challengeRoute } from "../../routes/api/challenge.ts";
import { staticRoute } from "../../routes/static.ts";
import { indexRoute } from "../../routes/index.tsx";
import { docsRoute } from "../../routes/docs.tsx";
import { openApiRoute } from "../../routes/openapi.json.ts";
import { healthRoute } from "../../routes/healthz.ts";

/** Every route, in the order the OpenAPI document lists the documented ones. */
export const ROUTES: readonly RouteDef<ServerDeps>[] = [
  ...REPORT_ROUTES,
  mcpRoute,
  ...HISTORY_ROUTES,
  ...WATCH_ROUTES,
  ...ANSWERS_ROUTES,
  ...LOGS_ROUTES,
  ...COMPARE_ROUTES,
  ...VALIDATE_ROUTES,
  challengeRoute,
  ...LEARN_ROUTES,
  indexRoute,
  docsRoute,
  openApiRoute,
  healthRoute,
  staticRoute,
  ...ACCOUNTS_ROUTES,
];
