/**
 * Every route of the program, in one list: each entry is a route module's own definition of one
 * path (lib/kit/web/route.ts RouteDef: its path, handlers, OpenAPI entry, which services serve it).
 * Mounting (lib/app/app.ts), the route groups (lib/kit/web/groups.ts), the 405 answers
 * (lib/kit/web/methods.ts) and the OpenAPI document (lib/app/openapi.ts, GET /openapi.json) all read it;
 * adding a route is a module under routes/ and one line here.
 */
import type { RouteDef } from "../kit/web/route.ts";
import { scanRoute } from "../features/report/routes/api/scan.ts";
import { validateRoute } from "../features/validate/routes/api/validate.ts";
import { validatePageRoute } from "../features/validate/routes/validate.tsx";
import { reportJsonRoute } from "../features/report/routes/api/report/[domain].ts";
import {
  reportHtmlRoute,
  reportMarkdownRoute,
  reportSarifRoute,
} from "../features/report/routes/api/report/[domain]_export.ts";
import { changesFeedRoute } from "../features/watch/routes/api/report/[domain]_feed.ts";
import { watchesRoute, watchRoute, watchTestRoute } from "../features/watch/routes/api/watches.ts";
import {
  accountWatchDeleteRoute,
  accountWatchesRoute,
} from "../features/watch/routes/account/watches.ts";
import {
  answerKeyRoute,
  answerKeysRoute,
  answerQuestionsRoute,
  answerRunRoute,
  answerRunsRoute,
  siteAnswersRoute,
} from "../features/answers/routes/api/answers.ts";
import {
  accountAnswerQuestionsRoute,
  accountAnswerRunRoute,
} from "../features/answers/routes/account/answers.ts";
import {
  accountAnswerKeyDeleteRoute,
  accountAnswerKeyRoute,
} from "../features/answers/routes/account/answer_keys.ts";
import {
  changesRoute,
  historyRoute,
  keptScanRoute,
} from "../features/history/routes/api/report/history.ts";
import { scanStatusRoute } from "../features/report/routes/api/scans/[id].ts";
import { compareJsonRoute } from "../features/compare/routes/api/compare.json.ts";
import { comparePageRoute } from "../features/compare/routes/compare.tsx";
import { mcpRoute } from "../../routes/mcp.ts";
import { challengeRoute } from "../../routes/api/challenge.ts";
import { staticRoute } from "../../routes/static.ts";
import { indexRoute } from "../../routes/index.tsx";
import {
  keptScanPageRoute,
  reportFormRoute,
  reportPageRoute,
} from "../features/report/routes/report/[domain].tsx";
import { badgeRoute } from "../features/report/routes/badge/[domain].svg.ts";
import { docsRoute } from "../../routes/docs.tsx";
import { learnIndexRoute, learnRoute } from "../features/learn/routes/learn.tsx";
import { openApiRoute } from "../../routes/openapi.json.ts";
import { healthRoute } from "../../routes/healthz.ts";
import { signupRoute } from "../features/accounts/routes/account/signup.tsx";
import { loginRoute } from "../features/accounts/routes/account/login.tsx";
import { logoutRoute } from "../features/accounts/routes/account/logout.ts";
import {
  accountKeyRevokeRoute,
  accountKeysRoute,
} from "../features/accounts/routes/account/keys.ts";
import { accountRoute } from "../features/accounts/routes/account/index.tsx";
import { adminLoginRoute } from "../features/accounts/routes/admin/login.tsx";
import { adminLogoutRoute } from "../features/accounts/routes/admin/logout.ts";
import { adminKeyRevokeRoute } from "../features/accounts/routes/admin/keys.ts";
import { adminRoute } from "../features/accounts/routes/admin/index.tsx";

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
