/**
 * The answer-presence forms of the report page, for a signed-in account on a site it watches
 * (lib/features/answers/, lib/features/answers/views/answer_presence_section.tsx):
 * - POST /account/answers/:domain/run (`csrf`): starts a run (the same checks and budgets as the
 *   API); 303 back to the report's section, or 202 JSON with `Accept: application/json`.
 * - POST /account/answers/:domain/questions (`questions`: one per line, `competitors`: one per
 *   line or comma-separated, each "domain" or "domain = Name", `csrf`): saves them; 303 back, or
 *   200 JSON.
 * - POST /account/answers/:domain/imports?source=... (`text/csv` body, the form token in
 *   `X-CSRF-Token`): imports a first-party export (the report's import form, an island); 201 JSON.
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
import { assertFormToken } from "../../../../kit/web/csrf.ts";
import { readCappedBody } from "../../../../kit/web/http_body.ts";
import { BadRequestError, UnsupportedMediaTypeError } from "../../../../kit/errors.ts";
import { MAX_IMPORT_BYTES } from "../../first_party.ts";
import { importExport } from "../../pages.ts";

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
      const competitors = field(form, "competitors").split(/[\r\n,]+/).map((c) => c.trim())
        .filter(Boolean);
      const saved = await setSiteQuestions(answersOf(deps), owner, param(c, "domain"), {
        questions,
        competitors,
      });
      if (wantsJson(c)) return c.json(saved);
      return c.redirect(back(saved.domain), 303);
    },
  }),
};

/** POST /account/answers/:domain/imports: a first-party export, from the report's form. */
export const accountAnswerImportsRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.accountAnswerImports,
  signedIn: ["POST"],
  handlers: (deps) => ({
    POST: async (c) => {
      // A CSV body, not a form: the token comes in its header (a type no cross-site form sends).
      if (!/^text\/csv\b/i.test(c.req.header("content-type") ?? "")) {
        throw new UnsupportedMediaTypeError();
      }
      const session = c.get("session")!;
      await assertFormToken(session.csrf, c.req.header("x-csrf-token") ?? "");
      c.header("Cache-Control", "no-store");
      const bytes = await readCappedBody(c.req.raw, MAX_IMPORT_BYTES);
      if (!bytes) throw new BadRequestError("The body must be the exported CSV file.");
      const meta = await importExport(
        answersOf(deps),
        { kind: "account", accountId: session.accountId! },
        param(c, "domain"),
        c.req.query("source") ?? "",
        new TextDecoder().decode(bytes),
      );
      return c.json(
        { import: { ...meta, importedAt: new Date(meta.importedAt).toISOString() } },
        201,
      );
    },
  }),
};
