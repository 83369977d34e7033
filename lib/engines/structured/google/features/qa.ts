/** Q&A: a page with one question and its answers (forums, support sites). */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isStandalone } from "../placement.ts";
import { each, oneOf, required } from "../rule_kit.ts";

export const qa: GoogleFeature = {
  name: "Q&A",
  status: "supported",
  since: null,
  url: `${SD_DOCS}qapage`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone QAPage",
    types: ["QAPage"],
    where: isStandalone,
    checks: [
      required("mainEntity", "the Question the page is about", "node"),
      each("mainEntity", [
        required("name", "the question's full text"),
        required("answerCount", "how many answers it has", "number"),
        oneOf("error", ["acceptedAnswer", "suggestedAnswer"], "its answers"),
        each("acceptedAnswer", [required("text", "the full answer")]),
        each("suggestedAnswer", [required("text", "the full answer")]),
      ]),
    ],
  }],
  complete: [{
    "@type": "QAPage",
    mainEntity: {
      "@type": "Question",
      name: "How long should dough rest?",
      answerCount: 1,
      acceptedAnswer: { "@type": "Answer", text: "At least an hour, better overnight." },
    },
  }],
};
