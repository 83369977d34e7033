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
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from "../../lib/errors.ts";
import { OperatorKeysError } from "../../lib/answers/errors.ts";
import { readJsonBody, zodMessage } from "../../lib/web/http_body.ts";
import { KeyBodySchema, QuestionsBodySchema } from "../../lib/answers/requests.ts";
import { answersOf } from "../../lib/answers/context.ts";
import { ownerOfBearer } from "../../lib/answers/access.ts";
import { isProviderId } from "../../lib/answers/providers.ts";
import { startRun } from "../../lib/answers/run.ts";
import { ownedRun, setSiteQuestions, siteAnswers } from "../../lib/answers/site_answers.ts";
import { deleteUserKey, setUserKey, userKeyViews } from "../../lib/answers/user_keys.ts";
import { runView } from "../../lib/answers/view.ts";

/** Largest body accepted (ten questions of 300 characters fit many times over). */
const MAX_BODY = 16 * 1024;

/** The /api/answers routes. */
export function answerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const a = answersOf(deps);
  const owner = (authorization: string | undefined) => ownerOfBearer(authorization, a);
  const account = async (authorization: string | undefined) => {
    const o = await owner(authorization);
    if (o.kind !== "account") throw new OperatorKeysError();
    return o.accountId;
  };
  const provider = (id: string) => {
    if (!isProviderId(id)) throw new NotFoundError(`No provider ${id}`);
    return id;
  };
  app.use("*", async (c, next) => {
    const type = c.req.header("content-type");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && type && !/json/i.test(type)) {
      throw new UnsupportedMediaTypeError();
    }
    c.header("Cache-Control", "no-store");
    await next();
  });
  app.get("/keys", async (c) => {
    const id = await account(c.req.header("authorization"));
    return c.json({ allowed: a.config.answers.userKeys, keys: await userKeyViews(a, id) });
  });
  app.put("/keys/:provider", async (c) => {
    const id = await account(c.req.header("authorization"));
    const body = KeyBodySchema.safeParse(await readJsonBody(c.req.raw, MAX_BODY));
    if (!body.success) throw new BadRequestError(zodMessage(body.error));
    const view = await setUserKey(a, id, provider(c.req.param("provider")), body.data.apiKey);
    return c.json({ key: view });
  });
  app.delete("/keys/:provider", async (c) => {
    const id = await account(c.req.header("authorization"));
    const deleted = await deleteUserKey(a, id, provider(c.req.param("provider")));
    if (!deleted) throw new NotFoundError("No key of that provider is set");
    return c.json({ deleted });
  });
  app.get("/:domain", async (c) => {
    const o = await owner(c.req.header("authorization"));
    return c.json(await siteAnswers(a, o, c.req.param("domain")));
  });
  app.put("/:domain/questions", async (c) => {
    const o = await owner(c.req.header("authorization"));
    const body = QuestionsBodySchema.safeParse(await readJsonBody(c.req.raw, MAX_BODY));
    if (!body.success) throw new BadRequestError(zodMessage(body.error));
    return c.json(await setSiteQuestions(a, o, c.req.param("domain"), body.data));
  });
  app.post("/:domain/runs", async (c) => {
    const o = await owner(c.req.header("authorization"));
    const { run } = await startRun(a, o, c.req.param("domain"), "api");
    const view = runView(run);
    c.header("Location", view.links.self);
    return c.json({ run: view, estimate: run.estimate }, 202);
  });
  app.get("/:domain/runs/:id", async (c) => {
    const o = await owner(c.req.header("authorization"));
    const answers = c.req.query("answers") !== "0";
    return c.json(await ownedRun(a, o, c.req.param("domain"), c.req.param("id"), answers));
  });
  return app;
}
