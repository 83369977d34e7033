/**
 * Practice problems: retired. Google's documentation changelog (2026-01-06) removed the page
 * because the feature "is no longer shown in Google Search results", pointing to its November 2025
 * announcement. A Quiz of practice questions (not flashcards: those are Education Q&A) aims at it.
 */
import type { GoogleFeature } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { valuesAt } from "../rule_kit.ts";

export const practiceProblem: GoogleFeature = {
  name: "Practice problem",
  status: "deprecated",
  since: "2026-01-06",
  url: "https://developers.google.com/search/updates",
  checked: "2026-11-26",
  note:
    "Google no longer shows practice problem rich results and removed their documentation on 2026-01-06.",
  rules: [],
  aimedAt: (n) =>
    n.types.includes("Quiz") && isTopLevel(n) &&
    !valuesAt(n, "hasPart.eduQuestionType").some((v) => String(v) === "Flashcard"),
};
