/** Article: news, blog and sports articles (title, images, dates, authors in results). */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { authorNames, namedEntity, recommended } from "../rule_kit.ts";
import { splitAuthors } from "../../bylines.ts";

export const article: GoogleFeature = {
  name: "Article",
  status: "supported",
  since: null,
  url: `${SD_DOCS}article`,
  checked: "2026-12-06",
  rules: [{
    nodes: "a top-level Article (or subtype), not a SocialMediaPosting",
    // "Article objects must be based on one of the following schema.org types: Article,
    // NewsArticle, BlogPosting" (Google's page, read 2026-12-06).
    types: ["Article", "NewsArticle", "BlogPosting"],
    where: isTopLevel,
    checks: [
      recommended("headline", "the article's title", "text"),
      recommended("image", "an image URL, at least 1200 px wide for large previews", "url"),
      recommended("datePublished", "when it was first published", "date"),
      recommended("dateModified", "when it was last changed", "date"),
      recommended("author", "a Person or Organization with name and url"),
      namedEntity("author", "warning"),
      authorNames("author", "warning", splitAuthors),
    ],
  }],
  generator: { primary: ["Article"] },
  complete: [{
    "@type": "Article",
    headline: "How we roast our coffee",
    image: "https://example.com/photos/roastery.jpg",
    datePublished: "2026-10-12T08:00:00+01:00",
    dateModified: "2026-10-14T09:30:00+01:00",
    author: { "@type": "Person", name: "Anna Reid", url: "https://example.com/people/anna-reid" },
  }],
};
