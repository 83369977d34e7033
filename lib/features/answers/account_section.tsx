/**
 * The account page's "Your AI vendor keys" section (lib/kit/web/account_sections.ts), where the
 * operator lets users bring their own keys (lib/features/answers/user_keys.ts), rendered by
 * views/answer_keys_section.tsx with what the last key form left: a notice or a refused form.
 */
import type { AccountSection } from "../../kit/web/account_sections.ts";
import type { Notice } from "../../../islands/KeyManager.tsx";
import type { AnswersDeps } from "./context.ts";
import { type UserKeyPanel, userKeyPanel } from "./user_keys.ts";
import { AnswerKeysSection } from "./views/answer_keys_section.tsx";

/** The section's id (also its anchor on the page, #answer-keys). */
export const ANSWER_KEYS_SECTION = "answer-keys";

/** What a key form leaves for the section. */
export interface AnswerKeysLeft {
  /** What the last form did (a form post's flash). */
  notice?: Notice | null;
  /** A refused form: its provider and why (what was typed is never shown again). */
  form?: UserKeyPanel["form"];
}

/** The vendor-key section of the account page; it shows nothing where users' keys are off. */
export function answerKeysAccountSection(deps: AnswersDeps): AccountSection {
  return {
    id: ANSWER_KEYS_SECTION,
    render: async ({ accountId, csrf }, left) => {
      const { notice, form } = (left ?? {}) as AnswerKeysLeft;
      const panel = await userKeyPanel(deps, accountId, form);
      return panel ? <AnswerKeysSection panel={panel} csrf={csrf} notice={notice ?? null} /> : null;
    },
  };
}
