/**
 * The answer-presence forms of the report page, for a signed-in account on a site it watches
 * (lib/answers/, lib/ui/answer_presence_section.tsx):
 * - POST /account/answers/:domain/run (`csrf`): starts a run (the same checks and budgets as the
 *   API); 303 back to the report's section, or 202 JSON with `Accept: application/json`.
 * - POST /account/answers/:domain/questions (`questions`: one per line, `competitors`: comma
 *   separated, `csrf`): saves them; 303 back, or 200 JSON.
 * A refusal (over budget, not watched, ...) is the group's error page with its 4xx status.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { assertFormToken, presentedToken } from "../../lib/web/csrf.ts";
import { field, readFormBody, wantsJson } from "../../lib/web/http_form.ts";
import { answersOf } from "../../lib/answers/context.ts";
import { startRun } from "../../lib/answers/run.ts";
import { setSiteQuestions } from "../../lib/answers/site_answers.ts";
import { runView } from "../../lib/answers/view.ts";
import { reportPagePath } from "../../lib/report_urls.ts";

async function signedIn(c: Context<AppEnv>) {
  const form = await readFormBody(c.req.raw);
  // The account group requires the session (lib/app.ts, lib/web/groups.ts).
  const session = c.get("session")!;
  await assertFormToken(session.csrf, presentedToken(c, form));
  return { owner: { kind: "account" as const, accountId: session.accountId! }, form };
}

/** The /account/answers routes. */
export function accountAnswerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const a = answersOf(deps);
  const back = (domain: string) => `${reportPagePath(domain)}#answers`;
  app.post("/:domain/run", async (c) => {
    const { owner } = await signedIn(c);
    c.header("Cache-Control", "no-store");
    const { run } = await startRun(a, owner, c.req.param("domain"), "page");
    if (wantsJson(c)) return c.json({ run: runView(run) }, 202);
    return c.redirect(back(run.domain), 303);
  });
  app.post("/:domain/questions", async (c) => {
    const { owner, form } = await signedIn(c);
    c.header("Cache-Control", "no-store");
    const questions = field(form, "questions").split(/\r?\n/).map((q) => q.trim()).filter(Boolean);
    const competitors = field(form, "competitors").split(/[\s,]+/).filter(Boolean);
    const saved = await setSiteQuestions(a, owner, c.req.param("domain"), {
      questions,
      competitors,
    });
    if (wantsJson(c)) return c.json(saved);
    return c.redirect(back(saved.domain), 303);
  });
  return app;
}
