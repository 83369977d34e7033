/**
 * FAQ: retired. Google's FAQ page (read 2026-11-26) opens with: "As of May 7, 2026, FAQ rich
 * results are no longer appearing in Google Search", the Rich Results Test and Search Console
 * report drop it in June 2026 and the Search Console API in August 2026; the documentation
 * changelog (https://developers.google.com/search/updates) carries the notice. Before, since
 * August 2023, only well-known government and health sites got them.
 *
 * The generator still writes FAQPage for a page that shows its questions with their answers on
 * the page itself: the markup stays true, valid schema.org (https://schema.org/FAQPage) and other
 * consumers may read it; the deprecation note says Google shows nothing for it.
 */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";

export const faq: GoogleFeature = {
  name: "FAQ",
  status: "deprecated",
  since: "2026-05-07",
  url: `${SD_DOCS}faqpage`,
  checked: "2026-11-26",
  note:
    "Google stopped showing FAQ rich results on 2026-05-07 (for every site; since August 2023 only well-known government and health sites had them).",
  afterlife:
    "FAQPage is still valid schema.org (https://schema.org/FAQPage): search engines and AI assistants other than Google's rich results may read the questions and answers, though none of those we checked documents a feature built on it. Keep it only where the page shows the questions with their answers.",
  rules: [],
  partTypes: ["FAQPage"],
  aimedAt: (n) => n.types.includes("FAQPage"),
  generator: { pageType: "FAQPage" },
};
