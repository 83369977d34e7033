/**
 * The answer-presence forms of the report page, for a signed-in account on a site it watches
 * (lib/features/answers/, lib/features/answers/views/answer_presence_section.tsx):
 * - POST /account/answers/:domain/run (`csrf`): starts a run (the same checks and budgets as the
 *   API); 303 back to the report's section, or 202 JSON with `Accept: application/json`.
 * - POST /account/answers/:domain/questions (`questions`: one per line, `competitors`: comma
 *   separated, `csrf`): saves them; 303 back, or 200 JSON.
 * A refusal (over budget, not watched, ...) is the group's error page with its 4xx status.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { signedInForm } from "../../../../kit/web/csrf.ts";
import { field, wantsJson } from "../../../../kit/web/http_form.ts";
import { type AnswersAppDeps, answersOf } from "../../context.ts";
import { startRun } from "../../run.ts";
import { setSiteQuestions } from "../../site_answers.ts";
import { runView } from "../../view.ts";
import { PATHS, reportPagePath } from "../../../../kit/report_urls.ts";

async function signedIn(c: Context<AppEnv>) {
  const { session, form } = await signedInForm(c);
  return { owner: { kind: "account" as const, accountId: session.accountId! }, form };
}

/** Back to the report's answer-presence section. */
function back(domain: string): string {
  return `${reportPagePath(domain)}#answers`;
}

/** POST /account/answers/:domain/run: starts a run. */
export const accountAnswerRunRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.accountAnswerRun,
  signedIn: ["POST"],
  handlers: (deps) => ({
    POST: async (c) => {
      const { owner } = await signedIn(c);
      c.header("Cache-Control", "no-store");
      const { run } = await startRun(answersOf(deps), owner, param(c, "domain"), "page");
      if (wantsJson(c)) return c.json({ run: runView(run) }, 202);
      return c.redirect(back(run.domain), 303);
    },
  }),
};

/** POST /account/answers/:domain/questions: saves the questions and competitors. */
export const accountAnswerQuestionsRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.accountAnswerQuestions,
  signedIn: ["POST"],
  handlers: (deps) => ({
    POST: async (c) => {
      const { owner, form } = await signedIn(c);
      c.header("Cache-Control", "no-store");
      const questions = field(form, "questions").split(/\r?\n/).map((q) => q.trim())
        .filter(Boolean);
      const competitors = field(form, "competitors").split(/[\s,]+/).filter(Boolean);
      const saved = await setSiteQuestions(answersOf(deps), owner, param(c, "domain"), {
        questions,
        competitors,
      });
      if (wantsJson(c)) return c.json(saved);
      return c.redirect(back(saved.domain), 303);
    },
  }),
};
