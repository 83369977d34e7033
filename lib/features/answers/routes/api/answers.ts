/**
 * Answer presence over the API (docs/answer-presence.md), for an account's API key (its watched
 * sites) or the operator's PIPELINE_TOKEN (any site); never anonymous:
 *   GET    /api/answers/keys                 which of the account's own vendor keys are set
 *   PUT    /api/answers/keys/:provider       {apiKey} stores the account's key, sealed
 *   DELETE /api/answers/keys/:provider       removes it
 *   GET    /api/answers/:domain              the plan (questions, providers, estimate, budgets)
 *                                            and the owner's runs
 *   PUT    /api/answers/:domain/questions    {questions?, competitors?}
 *   POST   /api/answers/:domain/runs         starts a run: 202 {run, estimate}; 429 over budget
 *   GET    /api/answers/:domain/runs/:id     the run, its results and answers (?answers=0: none)
 * A JSON API: a body of another type is 415.
 */
import { jsonApi, param, type RouteDef } from "../../../../kit/web/route.ts";
import { BadRequestError, NotFoundError } from "../../../../kit/errors.ts";
import { OperatorKeysError } from "../../errors.ts";
import { readJsonBody, zodMessage } from "../../../../kit/web/http_body.ts";
import { errorResponse, json } from "../../../../kit/web/openapi.ts";
import { KeyBodySchema, QuestionsBodySchema } from "../../requests.ts";
import { type AnswersAppDeps, answersOf } from "../../context.ts";
import { ownerOfBearer } from "../../access.ts";
import { requireProviderId } from "../../providers.ts";
import { startRun } from "../../run.ts";
import { ownedRun, setSiteQuestions, siteAnswers } from "../../site_answers.ts";
import { deleteUserKey, setUserKey, userKeyViews } from "../../user_keys.ts";
import { runView } from "../../view.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** Largest body accepted (ten questions of 300 characters fit many times over). */
const MAX_BODY = 16 * 1024;

/** Who the bearer is: an account (its watched sites) or the operator. */
function ownerOf(deps: AnswersAppDeps, authorization: string | undefined) {
  return ownerOfBearer(authorization, answersOf(deps));
}

/** The account of the bearer; the operator's token has no keys of its own to keep. */
async function accountOf(deps: AnswersAppDeps, authorization: string | undefined): Promise<string> {
  const o = await ownerOf(deps, authorization);
  if (o.kind !== "account") throw new OperatorKeysError();
  return o.accountId;
}

/** GET /api/answers/keys. */
export const answerKeysRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerKeys,
  use: [jsonApi],
  handlers: (deps) => ({
    GET: async (c) => {
      const a = answersOf(deps);
      const id = await accountOf(deps, c.req.header("authorization"));
      return c.json({ allowed: a.config.answers.userKeys, keys: await userKeyViews(a, id) });
    },
  }),
  openapi: () => ({
    get: {
      ...KEYED,
      operationId: "listAnswerKeys",
      summary: "Which of the account's own vendor keys are set (never the keys)",
      responses: { "200": object("{allowed, keys: [{provider, set, addedAt}]}"), ...REFUSED },
    },
  }),
};

/** PUT and DELETE /api/answers/keys/:provider. */
export const answerKeyRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerKey,
  use: [jsonApi],
  handlers: (deps) => ({
    PUT: async (c) => {
      const a = answersOf(deps);
      const id = await accountOf(deps, c.req.header("authorization"));
      const body = KeyBodySchema.safeParse(await readJsonBody(c.req.raw, MAX_BODY));
      if (!body.success) throw new BadRequestError(zodMessage(body.error));
      const view = await setUserKey(
        a,
        id,
        requireProviderId(param(c, "provider")),
        body.data.apiKey,
      );
      return c.json({ key: view });
    },
    DELETE: async (c) => {
      const a = answersOf(deps);
      const id = await accountOf(deps, c.req.header("authorization"));
      const deleted = await deleteUserKey(a, id, requireProviderId(param(c, "provider")));
      if (!deleted) throw new NotFoundError("No key of that provider is set");
      return c.json({ deleted });
    },
  }),
  openapi: () => ({
    put: {
      ...KEYED,
      operationId: "setAnswerKey",
      summary: "Store the account's own key of a vendor, sealed (ANSWERS_USER_KEYS=1)",
      parameters: [PROVIDER],
      requestBody: { required: true, content: json("AnswerKeyRequest") },
      responses: {
        "200": object("{key: {provider, set, addedAt}}: the key is not repeated."),
        "400": errorResponse("Not a key."),
        ...REFUSED,
        "404": errorResponse("No such provider."),
        "415": errorResponse("Not JSON."),
      },
    },
    delete: {
      ...KEYED,
      operationId: "deleteAnswerKey",
      summary: "Remove the account's own key of a vendor",
      parameters: [PROVIDER],
      responses: {
        "200": object("{deleted: true}"),
        ...REFUSED,
        "404": errorResponse("None set."),
      },
    },
  }),
  schemas: () => ({ AnswerKeyRequest: { schema: KeyBodySchema, io: "input" } }),
};

/** GET /api/answers/:domain: the plan and the runs. */
export const siteAnswersRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.siteAnswers,
  use: [jsonApi],
  handlers: (deps) => ({
    GET: async (c) => {
      const o = await ownerOf(deps, c.req.header("authorization"));
      return c.json(await siteAnswers(answersOf(deps), o, param(c, "domain")));
    },
  }),
  openapi: () => ({
    get: {
      ...KEYED,
      operationId: "getAnswerPresence",
      summary: "The plan (questions, providers, estimated cost, budgets left) and the runs",
      parameters: [DOMAIN],
      responses: { "200": object("{plan, runs, running}"), ...REFUSED },
    },
  }),
};

/** PUT /api/answers/:domain/questions. */
export const answerQuestionsRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerQuestions,
  use: [jsonApi],
  handlers: (deps) => ({
    PUT: async (c) => {
      const o = await ownerOf(deps, c.req.header("authorization"));
      const body = QuestionsBodySchema.safeParse(await readJsonBody(c.req.raw, MAX_BODY));
      if (!body.success) throw new BadRequestError(zodMessage(body.error));
      return c.json(await setSiteQuestions(answersOf(deps), o, param(c, "domain"), body.data));
    },
  }),
  openapi: () => ({
    put: {
      ...KEYED,
      operationId: "setAnswerQuestions",
      summary: "Set the questions asked about the site, and its competitors",
      parameters: [DOMAIN],
      requestBody: { required: true, content: json("AnswerQuestionsRequest") },
      responses: {
        "200": object("{domain, questions, competitors, origin}"),
        "400": errorResponse("Too many questions, a question too short or long, not a domain."),
        ...REFUSED,
        "415": errorResponse("Not JSON."),
      },
    },
  }),
  schemas: () => ({ AnswerQuestionsRequest: { schema: QuestionsBodySchema, io: "input" } }),
};

/** POST /api/answers/:domain/runs: starts a run. */
export const answerRunsRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerRuns,
  use: [jsonApi],
  handlers: (deps) => ({
    POST: async (c) => {
      const o = await ownerOf(deps, c.req.header("authorization"));
      const { run } = await startRun(answersOf(deps), o, param(c, "domain"), "api");
      const view = runView(run);
      c.header("Location", view.links.self);
      return c.json({ run: view, estimate: run.estimate }, 202);
    },
  }),
  openapi: () => ({
    post: {
      ...KEYED,
      operationId: "startAnswerRun",
      summary: "Ask the configured assistants every question N times (costs money)",
      description: "The run's calls are reserved against the account's and the instance's " +
        "budgets of the day first; over budget, nothing is spent. The run goes on in the " +
        "background: read its Location.",
      parameters: [DOMAIN],
      responses: {
        "202": object("{run, estimate}; Location: the run."),
        ...REFUSED,
        "409": errorResponse("No provider configured, or a run of the site in progress."),
        "429": {
          description: "A budget of calls per day would be exceeded; nothing was spent.",
          content: json("RateLimited"),
        },
      },
    },
  }),
};

/** GET /api/answers/:domain/runs/:id: one run. */
export const answerRunRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerRun,
  use: [jsonApi],
  handlers: (deps) => ({
    GET: async (c) => {
      const o = await ownerOf(deps, c.req.header("authorization"));
      const answers = c.req.query("answers") !== "0";
      return c.json(
        await ownedRun(answersOf(deps), o, param(c, "domain"), param(c, "id"), answers),
      );
    },
  }),
  openapi: () => ({
    get: {
      ...KEYED,
      operationId: "getAnswerRun",
      summary: "A run's results per provider and question, and its answers with their sources",
      parameters: [DOMAIN, pathParameter("id", "The run's id."), {
        name: "answers",
        in: "query",
        required: false,
        description: "0: leave the answers out.",
        schema: { type: "string", enum: ["0", "1"] },
      }],
      responses: {
        "200": object("{run, kept, answers}"),
        ...REFUSED,
        "404": errorResponse("No run."),
      },
    },
  }),
};

function object(description: string) {
  return { description, content: { "application/json": { schema: { type: "object" } } } };
}
function pathParameter(name: string, description: string) {
  return { name, in: "path", required: true, description, schema: { type: "string" } };
}
const DOMAIN = pathParameter("domain", "A watched domain, e.g. example.com.");
const PROVIDER = pathParameter("provider", "openai, perplexity, anthropic or gemini.");
const KEYED = { tags: ["answers"], security: [{ bearerAuth: [] }] };
const REFUSED = {
  "401": errorResponse("No key or token, or an unknown one: `Unauthorized` (never anonymous)."),
  "403": errorResponse("A key without an account, or a site the account does not watch."),
};
