/**
 * Answer presence (docs/answer-presence.md): the API and the account page's forms (a run, the
 * questions, a user's own vendor keys). lib/app/routes.ts lists it.
 */
import type { RouteDef } from "../../kit/web/route.ts";
import type { AnswersAppDeps } from "./context.ts";
import {
  answerKeyRoute,
  answerKeysRoute,
  answerQuestionsRoute,
  answerRunRoute,
  answerRunsRoute,
  siteAnswersRoute,
} from "./routes/api/answers.ts";
import {
  accountAnswerImportsRoute,
  accountAnswerQuestionsRoute,
  accountAnswerRunRoute,
} from "./routes/account/answers.ts";
import { answerImportsRoute, answerPagesRoute } from "./routes/api/answer_imports.ts";
import {
  accountAnswerKeyDeleteRoute,
  accountAnswerKeyRoute,
} from "./routes/account/answer_keys.ts";

/** The answers feature's routes. */
export const ANSWERS_ROUTES: readonly RouteDef<AnswersAppDeps>[] = [
  // /api/answers/keys before /api/answers/{domain}: "keys" is never a domain, but the first
  // matching route answers.
  answerKeysRoute,
  answerKeyRoute,
  siteAnswersRoute,
  answerImportsRoute,
  answerPagesRoute,
  answerQuestionsRoute,
  answerRunsRoute,
  answerRunRoute,
  accountAnswerRunRoute,
  accountAnswerQuestionsRoute,
  accountAnswerImportsRoute,
  accountAnswerKeyRoute,
  accountAnswerKeyDeleteRoute,
];
