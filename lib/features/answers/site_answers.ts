/**
 * The operations the API, MCP, the pages and the CLI share, each checking who may do it: a site's
 * plan (questions, providers, estimate, budgets), editing its questions, one of the owner's runs
 * with its answers. Starting a run is run.ts `startRun`.
 */
import { NotFoundError } from "../../kit/errors.ts";
import { assertMayRun } from "./access.ts";
import type { AnswersDeps } from "./context.ts";
import { domainOf, editQuestions, planRun } from "./plan.ts";
import type { Owner } from "./run_types.ts";
import { answersView, planView, runList, runView } from "./view.ts";
import { ownerKey } from "./store.ts";
import { settled } from "./run.ts";

/** The plan of a site and the owner's runs of it. @throws NotWatchedError, BadRequestError. */
export async function siteAnswers(deps: AnswersDeps, owner: Owner, input: string) {
  const { domain } = domainOf(input);
  await assertMayRun(deps, owner, domain);
  const plan = await planRun(deps, owner, input);
  return {
    plan: await planView(deps, plan),
    runs: await runList(deps, owner, domain),
    running: await deps.answers.active(owner, domain),
  };
}

/** Sets a site's questions and competitors. @throws NotWatchedError, BadRequestError. */
export async function setSiteQuestions(
  deps: AnswersDeps,
  owner: Owner,
  input: string,
  body: { questions?: unknown; competitors?: unknown },
) {
  const { domain, url } = domainOf(input);
  await assertMayRun(deps, owner, domain);
  const set = await editQuestions(deps, owner, domain, url, body);
  return {
    domain,
    questions: set.questions,
    competitors: set.competitors,
    competitorNames: set.competitorNames ?? {},
    origin: set.origin,
  };
}

/** One of the owner's runs of a site, with its answers. @throws NotFoundError. */
export async function ownedRun(
  deps: AnswersDeps,
  owner: Owner,
  input: string,
  id: string,
  withAnswers = true,
) {
  const { domain } = domainOf(input);
  const run = /^[0-9a-f-]{36}$/.test(id) ? await deps.answers.getRun(id) : null;
  if (!run || run.domain !== domain || ownerKey(run.owner) !== ownerKey(owner)) {
    throw new NotFoundError(`No run ${id} of ${domain}`);
  }
  const now = settled(run, deps.now());
  return {
    run: runView(now),
    ...(withAnswers ? answersView(run, await deps.answers.samples(run.id)) : {}),
  };
}
