/** `content.answer_shaped`: questions answered directly, lists and tables an answer can lift. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const answerShaped: SignalDef = {
  id: "content.answer_shaped",
  pillar: "content",
  title: "Answer-shaped content",
  points: 4,
  scope: "page",
  learn: {
    what:
      "Questions as headings, short paragraphs that answer them, lists and tables: content shaped like the answers people look for.",
    why: "AI answers quote passages that answer a question directly.",
    how:
      "We count question-style headings, FAQ-like blocks (details, definition lists), lists, tables and substantial paragraphs.",
    sources: [SOURCES.helpful, SOURCES.aiFeatures],
  },
  check(ctx) {
    const f = ctx.facts;
    const evidence = [
      `${f.questionHeadings} question-style headings`,
      `${f.substantialParagraphs} substantial paragraphs`,
      `${f.lists} lists, ${f.tables} tables`,
      `${f.detailsCount} <details>, ${f.definitionLists} <dl>`,
    ];
    const faqLike = f.questionHeadings >= 2 || f.detailsCount >= 2 || f.definitionLists > 0;
    const structured = f.lists + f.tables >= 1 && f.substantialParagraphs >= 2;
    const status = faqLike && structured ? "pass" : faqLike || structured ? "warn" : "fail";
    return {
      status,
      detail: status === "pass"
        ? "The page answers questions directly and uses lists or tables: easy for AI answers to lift."
        : faqLike
        ? "The page has question-style sections, but few lists, tables or substantial paragraphs."
        : structured
        ? "The page has lists and paragraphs, but no question-and-answer sections that match how people ask."
        : "The page has no question-and-answer sections, lists or tables for an AI answer to lift.",
      evidence,
    };
  },
  fix: () => ({
    what: "Add question-and-answer sections",
    why:
      "AI assistants answer questions; passages that state a question and answer it in 40-60 words are the ones they quote.",
    how: howText(
      byHand(
        "add an FAQ section: each question as an <h2>/<h3> (or <details><summary>), followed by a direct 1-3 sentence answer in a <p>; put comparisons and specs in <table>s and steps in <ol>.",
      ),
      checkAfterwards(
        "that the page has at least two question headings (or two <details>), a list or table, and two paragraphs of 40 words or more.",
      ),
    ),
    effort: "M",
  }),
};
