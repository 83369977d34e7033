/** Education Q&A: flashcard questions and answers for students. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { each, required, valuesAt } from "../rule_kit.ts";

export const educationQa: GoogleFeature = {
  name: "Education Q&A",
  status: "supported",
  since: null,
  url: `${SD_DOCS}education-qa`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level Quiz of flashcards (eduQuestionType Flashcard)",
    types: ["Quiz"],
    where: (n) =>
      isTopLevel(n) &&
      valuesAt(n, "hasPart.eduQuestionType").some((v) => String(v) === "Flashcard"),
    checks: [
      each("hasPart", [
        required("text", "the question's full text"),
        required("acceptedAnswer", "the answer, an Answer with its text", "node"),
        each("acceptedAnswer", [required("text", "the answer's text")]),
      ]),
    ],
  }],
  complete: [{
    "@type": "Quiz",
    hasPart: [{
      "@type": "Question",
      eduQuestionType: "Flashcard",
      text: "What is the chemical symbol of iron?",
      acceptedAnswer: { "@type": "Answer", text: "Fe" },
    }],
  }],
};
