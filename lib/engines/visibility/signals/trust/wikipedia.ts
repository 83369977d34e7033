/** `trust.wikipedia`: a Wikipedia article about the organisation. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { offSiteFinding } from "../off_site.ts";

export const wikipedia: SignalDef = {
  id: "trust.wikipedia",
  pillar: "trust",
  title: "Wikipedia article",
  points: 2,
  scope: "page",
  learn: {
    what: "An article about the organisation on Wikipedia.",
    why: "Wikipedia is among the most cited sources in AI answers and in training data.",
    how: "We look for the Wikipedia article of the Wikidata item, then search by name.",
    sources: [SOURCES.wikidata],
  },
  check: (ctx) => offSiteFinding(ctx, "wikipedia", 2, "low"),
  fix: () => ({
    what: "Earn coverage that can support a Wikipedia article",
    why:
      "Wikipedia is among the most heavily weighted sources in AI training and answers; an article about you is strong evidence of notability.",
    how: howText(
      byHand(
        "do not write your own article (conflict of interest). Earn independent, reliable coverage (press, books, industry reports); once it exists, request an article at https://en.wikipedia.org/wiki/Wikipedia:Requested_articles and link the article from your Wikidata item and sameAs.",
      ),
      checkAfterwards("that a Wikipedia article about you exists and links to your site."),
    ),
    effort: "L",
  }),
};
