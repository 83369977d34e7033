/** Article: news, blog and sports articles (title, images, dates, authors in results). */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel, withoutTypes } from "../placement.ts";
import { namedEntity, recommended } from "../rule_kit.ts";

export const article: GoogleFeature = {
  name: "Article",
  status: "supported",
  since: null,
  url: `${SD_DOCS}article`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level Article (or subtype), not a SocialMediaPosting",
    applies: (n) =>
      anyIsA(n.types, "Article") && isTopLevel(n) && withoutTypes(n, "SocialMediaPosting"),
    checks: [
      recommended("headline", "the article's title", "text"),
      recommended("image", "an image URL, at least 1200 px wide for large previews", "url"),
      recommended("datePublished", "when it was first published", "date"),
      recommended("dateModified", "when it was last changed", "date"),
      recommended("author", "a Person or Organization with name and url"),
      namedEntity("author", "warning"),
    ],
  }],
  generator: { primary: ["Article"] },
};
