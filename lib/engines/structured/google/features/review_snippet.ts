/** Review snippet: a rating (stars) or review excerpt under a result. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { withoutTypes } from "../placement.ts";
import { itemReviewed, ratingRange } from "../rating.ts";
import { each, namedEntity, oneOf, recommended, required } from "../rule_kit.ts";

export const reviewSnippet: GoogleFeature = {
  name: "Review snippet",
  status: "supported",
  since: null,
  url: `${SD_DOCS}review-snippet`,
  checked: "2026-11-26",
  rules: [
    {
      nodes: "an AggregateRating (not an EmployerAggregateRating)",
      applies: (n) =>
        anyIsA(n.types, "AggregateRating") && withoutTypes(n, "EmployerAggregateRating"),
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
      applies: (n) => anyIsA(n.types, "Review") && withoutTypes(n, "ClaimReview"),
      checks: [
        required("author", "who wrote the review: a Person or Organization with a name"),
        namedEntity("author", "error"),
        required("reviewRating", "the rating given, a Rating with ratingValue", "node"),
        each("reviewRating", [required("ratingValue", "the rating given", "rating"), ratingRange]),
        recommended("datePublished", "when the review was published", "date"),
        itemReviewed,
      ],
    },
  ],
};
