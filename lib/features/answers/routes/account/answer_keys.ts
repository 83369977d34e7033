/**
 * The dashboard's forms of the account's own AI vendor keys (lib/features/answers/user_keys.ts,
 * lib/features/answers/views/answer_keys_section.tsx), where the operator allows them (ANSWERS_USER_KEYS=1):
 * - POST /account/answer-keys/:provider (`apiKey`, `csrf`): stores (or replaces) the key, sealed;
 *   303 back to the dashboard's section, or 200 `{key: {provider, set, addedAt}}` with
 *   `Accept: application/json` (the key is never repeated). A key that is not one (too short, too
 *   long, spaces) is 400: the dashboard again with the reason beside that vendor's form.
 * - POST /account/answer-keys/:provider/delete (`csrf`): removes it; 303 back, or 200
 *   `{deleted: true}`. None set is 404.
 * An unknown provider is 404, users' keys off 403: the group's error page (JSON for a fetch).
 */
import type { Context } from "hono";
import type { ActiveSession, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { BadRequestError, NotFoundError } from "../../../../kit/errors.ts";
import { signedInForm } from "../../../../kit/web/csrf.ts";
import { field, wantsJson } from "../../../../kit/web/http_form.ts";
import { putFlash } from "../../../../kit/web/sessions.ts";
import { type AccountFlash, RefusedAccountForm } from "../../../../kit/web/account_sections.ts";
import { ANSWER_KEYS_SECTION, type AnswerKeysLeft } from "../../account_section.tsx";
import { type AnswersAppDeps, answersOf } from "../../context.ts";
import { providerOf, requireProviderId } from "../../providers.ts";
import { deleteUserKey, setUserKey } from "../../user_keys.ts";
import { PATHS } from "../../../../kit/report_urls.ts";

/** POST /account/answer-keys/:provider: stores the account's key of a vendor. */
export const accountAnswerKeyRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.accountAnswerKey,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => setKey(c, deps) }),
};

/** POST /account/answer-keys/:provider/delete: removes it. */
export const accountAnswerKeyDeleteRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.accountAnswerKeyDelete,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => deleteKey(c, deps) }),
};

async function setKey(c: Context<AppEnv>, deps: AnswersAppDeps): Promise<Response> {
  const { session, form } = await signedInForm(c);
  c.header("Cache-Control", "no-store");
  const provider = requireProviderId(param(c, "provider"));
  try {
    const key = await setUserKey(
      answersOf(deps),
      session.accountId!,
      provider,
      field(form, "apiKey"),
    );
    if (wantsJson(c)) return c.json({ key });
    return await back(c, deps, session, `Your ${providerOf(provider).label} key is saved.`);
  } catch (error) {
    if (wantsJson(c) || !(error instanceof BadRequestError)) throw error;
    // The account page again, with why that vendor's key was refused beside its form.
    const left: AnswerKeysLeft = { form: { provider, error: error.message } };
    throw new RefusedAccountForm(ANSWER_KEYS_SECTION, left, error);
  }
}

async function deleteKey(c: Context<AppEnv>, deps: AnswersAppDeps): Promise<Response> {
  const { session } = await signedInForm(c);
  c.header("Cache-Control", "no-store");
  const provider = requireProviderId(param(c, "provider"));
  if (!(await deleteUserKey(answersOf(deps), session.accountId!, provider))) {
    throw new NotFoundError("No key of that provider is set");
  }
  if (wantsJson(c)) return c.json({ deleted: true });
  return await back(c, deps, session, `Your ${providerOf(provider).label} key is removed.`);
}

/** 303 back to the dashboard's section, which shows `done` once (the session's flash). */
async function back(
  c: Context<AppEnv>,
  deps: AnswersAppDeps,
  session: ActiveSession,
  done: string,
): Promise<Response> {
  const left: AnswerKeysLeft = { notice: { kind: "success", text: done } };
  const flash: AccountFlash = { sections: { [ANSWER_KEYS_SECTION]: left } };
  await putFlash(deps, session, flash);
  return c.redirect(`${PATHS.account}#${ANSWER_KEYS_SECTION}`, 303);
}
