/**
 * Every route of the program, in one list: each entry is a route module's own definition of one
 * path (lib/web/route.ts RouteDef: its path, handlers, OpenAPI entry, which services serve it).
 * Mounting (lib/app.ts), the route groups (lib/web/groups.ts), the 405 answers
 * (lib/web/methods.ts) and the OpenAPI document (lib/openapi.ts, GET /openapi.json) all read it;
 * adding a route is a module under routes/ and one line here.
 */
import type { RouteDef } from "./web/route.ts";
import { scanRoute } from "../routes/api/scan.ts";
import { validateRoute } from "../routes/api/validate.ts";
import { validatePageRoute } from "../routes/validate.tsx";
import { reportJsonRoute } from "../routes/api/report/[domain].ts";
import {
  reportHtmlRoute,
  reportMarkdownRoute,
  reportSarifRoute,
} from "../routes/api/report/[domain]_export.ts";
import { changesFeedRoute } from "../routes/api/report/[domain]_feed.ts";
import { watchesRoute, watchRoute, watchTestRoute } from "../routes/api/watches.ts";
import { accountWatchDeleteRoute, accountWatchesRoute } from "../routes/account/watches.ts";
import {
  answerKeyRoute,
  answerKeysRoute,
  answerQuestionsRoute,
  answerRunRoute,
  answerRunsRoute,
  siteAnswersRoute,
} from "../routes/api/answers.ts";
import { accountAnswerQuestionsRoute, accountAnswerRunRoute } from "../routes/account/answers.ts";
import {
  accountAnswerKeyDeleteRoute,
  accountAnswerKeyRoute,
} from "../routes/account/answer_keys.ts";
import { changesRoute, historyRoute, keptScanRoute } from "../routes/api/report/history.ts";
import { scanStatusRoute } from "../routes/api/scans/[id].ts";
import { logsRoute } from "../routes/api/logs.ts";
import { compareJsonRoute } from "../routes/api/compare.json.ts";
import { comparePageRoute } from "../routes/compare.tsx";
import { mcpRoute } from "../routes/mcp.ts";
import { challengeRoute } from "../routes/api/challenge.ts";
import { staticRoute } from "../routes/static.ts";
import { indexRoute } from "../routes/index.tsx";
import { keptScanPageRoute, reportFormRoute, reportPageRoute } from "../routes/report/[domain].tsx";
import { badgeRoute } from "../routes/badge/[domain].svg.ts";
import { docsRoute } from "../routes/docs.tsx";
import { learnIndexRoute, learnRoute } from "../routes/learn.tsx";
import { openApiRoute } from "../routes/openapi.json.ts";
import { healthRoute } from "../routes/healthz.ts";
import { signupRoute } from "../routes/account/signup.tsx";
import { loginRoute } from "../routes/account/login.tsx";
import { logoutRoute } from "../routes/account/logout.ts";
import { accountKeyRevokeRoute, accountKeysRoute } from "../routes/account/keys.ts";
import { accountRoute } from "../routes/account/index.tsx";
import { adminLoginRoute } from "../routes/admin/login.tsx";
import { adminLogoutRoute } from "../routes/admin/logout.ts";
import { adminKeyRevokeRoute } from "../routes/admin/keys.ts";
import { adminRoute } from "../routes/admin/index.tsx";

/** Every route, in the order the OpenAPI document lists the documented ones. */
export const ROUTES: readonly RouteDef[] = [
  scanRoute,
  reportJsonRoute,
  mcpRoute,
  scanStatusRoute,
  historyRoute,
  keptScanRoute,
  changesRoute,
  changesFeedRoute,
  reportMarkdownRoute,
  reportHtmlRoute,
  reportSarifRoute,
  watchesRoute,
  watchRoute,
  watchTestRoute,
  // /api/answers/keys before /api/answers/{domain}: "keys" is never a domain, but the first
  // matching route answers.
  answerKeysRoute,
  answerKeyRoute,
  siteAnswersRoute,
  answerQuestionsRoute,
  answerRunsRoute,
  answerRunRoute,
  logsRoute,
  compareJsonRoute,
  validateRoute,
  badgeRoute,
  challengeRoute,
  indexRoute,
  reportFormRoute,
  reportPageRoute,
  keptScanPageRoute,
  comparePageRoute,
  validatePageRoute,
  docsRoute,
  learnIndexRoute,
  learnRoute,
  openApiRoute,
  healthRoute,
  staticRoute,
  signupRoute,
  loginRoute,
  logoutRoute,
  accountKeysRoute,
  accountKeyRevokeRoute,
  accountWatchesRoute,
  accountWatchDeleteRoute,
  accountAnswerRunRoute,
  accountAnswerQuestionsRoute,
  accountAnswerKeyRoute,
  accountAnswerKeyDeleteRoute,
  accountRoute,
  adminLoginRoute,
  adminLogoutRoute,
  adminKeyRevokeRoute,
  adminRoute,
];
