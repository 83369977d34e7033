/**
 * Whether a page is a list of questions with their answers shown on the page itself (the
 * generator's FAQPage), and its Question nodes.
 */
import type { Answer, Question } from "schema-dts";
import type { Facts } from "../record.ts";
import type { JsonObject } from "../terms.ts";
import { toJson } from "./values.ts";

/** The page's questions and their answers as Question nodes with the given @ids. */
export function questionNodes(facts: Facts, ids: string[]): JsonObject[] {
  return facts.faq.slice(0, ids.length).map((qa, i) => {
    const answer: Answer = { "@type": "Answer", text: qa.answer };
    const q: Question = {
      "@type": "Question",
      "@id": ids[i],
      name: qa.question,
      acceptedAnswer: answer,
    };
    return toJson(q);
  });
}

/**
 * Whether the page is a list of questions and answers, not an article or post that asks
 * questions in its headings: no article facts or og:type article, at least two pairs, and every
 * answer an answer (some text, not itself a question).
 */
export function isFaqPage(facts: Facts): boolean {
  if (facts.article || /article|blog|post/i.test(facts.ogType ?? "")) return false;
  if (facts.faq.length < 2) return false;
  return facts.faq.every((qa) => /\S\s+\S/.test(qa.answer) && !/[?\uff1f]\s*$/.test(qa.answer));
}
