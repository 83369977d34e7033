/**
 * What the report page's "Answer presence" section shows a signed-in account for a site it
 * watches (lib/features/answers/views/answer_presence_section.tsx renders it): the plan (questions with their basis,
 * providers, the estimated cost, the calls left today), the latest finished run with its results
 * and answers, and whether a run is in progress. Nobody else sees it: a run is the account's.
 */
import { watchOfDomain } from "./access.ts";
import type { AnswersDeps } from "./context.ts";
import { planRun } from "./plan.ts";
import { answersView, planView, runView } from "./view.ts";
import { sitePages } from "./pages.ts";

/** The section's data. */
export interface AnswersPanel {
  domain: string;
  plan: Awaited<ReturnType<typeof planView>>;
  latest: ReturnType<typeof runView> | null;
  answers: ReturnType<typeof answersView> | null;
  /** The run in progress: how many of its calls have answered or failed so far, of the most. */
  running: { id: string; asked: number; planned: number; since: string } | null;
  /** The session's form token. */
  csrf: string;
  /** Per page: the answers citing it beside the first-party exports and the logs (pages.ts). */
  pages: Awaited<ReturnType<typeof sitePages>> | null;
}

/**
 * What a signed-in account that does not watch the site is offered on its report: watching it
 * (the watch feature's form, by its path), which brings the assistants' answers with it.
 */
export interface AnswersOffer {
  domain: string;
  csrf: string;
  /** Whether any assistant has a key on this instance (else only watching is offered). */
  assistants: boolean;
}

/** The offer of `domain` for a signed-in account that does not watch it (else null). */
export async function answersOffer(
  deps: AnswersDeps,
  accountId: string,
  domain: string,
  csrf: string,
): Promise<AnswersOffer | null> {
  if (await watchOfDomain(deps, accountId, domain)) return null;
  const s = deps.config.answers;
  const assistants = Object.values(s.providers).some((p) => p.key) || s.userKeys;
  return { domain, csrf, assistants };
}

/** The panel of `domain` for the account, or null when it does not watch the site. */
export async function answersPanel(
  deps: AnswersDeps,
  accountId: string,
  domain: string,
  csrf: string,
): Promise<AnswersPanel | null> {
  if (!(await watchOfDomain(deps, accountId, domain))) return null;
  const owner = { kind: "account" as const, accountId };
  const plan = await planView(deps, await planRun(deps, owner, domain));
  const latest = (await deps.answers.listRuns(owner, domain, 5)).find((r) => r.status === "done");
  return {
    domain,
    plan,
    latest: latest ? runView(latest) : null,
    answers: latest ? answersView(latest, await deps.answers.samples(latest.id)) : null,
    running: await runningOf(deps, owner, domain),
    pages: await pagesOf(deps, owner, domain),
    csrf,
  };
}

/** The owner's run of the site in progress, with its progress (its answers kept so far). */
async function runningOf(
  deps: AnswersDeps,
  owner: { kind: "account"; accountId: string },
  domain: string,
): Promise<AnswersPanel["running"]> {
  const id = await deps.answers.active(owner, domain);
  if (!id) return null;
  const run = await deps.answers.getRun(id);
  if (!run) return null;
  return {
    id,
    asked: (await deps.answers.samples(id)).length,
    planned: Math.max(
      1,
      run.estimate.calls - run.estimate.canaryCalls * run.estimate.providers.length,
    ),
    since: new Date(run.createdAt).toISOString(),
  };
}

/** The pages view where the site has imports or logs (else null: nothing to set beside). */
async function pagesOf(
  deps: AnswersDeps,
  owner: { kind: "account"; accountId: string },
  domain: string,
): Promise<AnswersPanel["pages"]> {
  const view = await sitePages(deps, owner, domain);
  return view.imports.length || view.observedFromLogs ? view : null;
}
