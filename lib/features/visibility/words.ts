/** What the AI Visibility Checker calls its things (lib/service.ts ServiceWords). */
import type { ServiceWords } from "../../service.ts";

/** The visibility service's words. */
export const VISIBILITY_WORDS: ServiceWords = {
  title: "AI Visibility Checker",
  mcpName: "ai-visibility",
  targetWords: "a domain or a URL",
  recordWords:
    "The record holds the score (0-100), the grade (A-F) and its label, six pillars with every signal checked, the top issues in the order to fix them (each with what, why, how and effort), and the presence on Wikidata, Wikipedia and Common Crawl.",
  reportKind: "AI visibility report",
  fileKind: "ai-visibility",
  badgeLabel: "AI visibility",
  badgeAlt: "AI visibility",
  homeDescription:
    "Check how visible your site is to AI search and assistants: a score, the issues that matter and the exact fixes. Free, no account.",
  sisterPitch: "how visible a whole site is to AI search and assistants, with the fixes",
  sister: "schema",
  exampleTarget: "example.com",
  resultJq: "{score: .result.score, grade: .result.grade}",
  form: {
    label: "Website",
    hint: "A domain or a full address, e.g. example.com",
    placeholder: "example.com",
    button: "Check visibility",
    render:
      "Also render the pages in a browser: what AI crawlers that do not run JavaScript miss (slower)",
  },
};
