/** Review snippet: a rating (stars) or review excerpt under a result. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { itemReviewed, ratingRange } from "../rating.ts";
import { authorNames, each, namedEntity, oneOf, recommended, required } from "../rule_kit.ts";
import { splitAuthors } from "../../bylines.ts";

export const reviewSnippet: GoogleFeature = {
  name: "Review snippet",
  status: "supported",
  since: null,
  url: `${SD_DOCS}review-snippet`,
  checked: "2026-12-06",
  rules: [
    {
      nodes: "an AggregateRating (not an EmployerAggregateRating)",
      // An EmployerAggregateRating is the Employer rating page's.
      types: ["AggregateRating"],
      checks: [
        required("ratingValue", "the average rating", "rating"),
        oneOf(
          "error",
          ["ratingCount", "reviewCount"],
          "how many ratings or reviews the average is based on",
        ),
        ratingRange,
        itemReviewed,
      ],
    },
    {
      nodes: "a Review (not a ClaimReview)",
      // A ClaimReview is the (retired) fact check's.
      types: ["Review"],
      checks: [
        required("author", "who wrote the review: a Person or Organization with a name"),
        namedEntity("author", "error"),
        authorNames("author", "error", splitAuthors),
        required("reviewRating", "the rating given, a Rating with ratingValue", "node"),
        each("reviewRating", [required("ratingValue", "the rating given", "rating"), ratingRange]),
        recommended("datePublished", "when the review was published", "date"),
        itemReviewed,
      ],
    },
  ],
  complete: [
    {
      "@type": "Review",
      itemReviewed: { "@type": "Product", name: "Trail runner" },
      author: { "@type": "Person", name: "Bo Lind" },
      reviewRating: { "@type": "Rating", ratingValue: 4 },
      datePublished: "2026-10-12",
    },
    {
      "@type": "AggregateRating",
      itemReviewed: { "@type": "Product", name: "Trail runner" },
      ratingValue: 4.4,
      ratingCount: 89,
    },
  ],
};
