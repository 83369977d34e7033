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

/** The section's data. */
export interface AnswersPanel {
  domain: string;
  plan: Awaited<ReturnType<typeof planView>>;
  latest: ReturnType<typeof runView> | null;
  answers: ReturnType<typeof answersView> | null;
  running: boolean;
  /** The session's form token. */
  csrf: string;
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
    running: (await deps.answers.active(owner, domain)) !== null,
    csrf,
  };
}
