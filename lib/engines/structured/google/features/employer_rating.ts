/** Employer aggregate rating: an employer's rating in Google's job search. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { ratingRange } from "../rating.ts";
import { oneOf, required } from "../rule_kit.ts";

export const employerRating: GoogleFeature = {
  name: "Employer aggregate rating",
  status: "supported",
  since: null,
  url: `${SD_DOCS}employer-rating`,
  checked: "2026-11-26",
  rules: [{
    nodes: "an EmployerAggregateRating",
    types: ["EmployerAggregateRating"],
    checks: [
      required("itemReviewed", "the employer rated, an Organization with its name", "node"),
      required("ratingValue", "the average rating", "rating"),
      oneOf("error", ["ratingCount", "reviewCount"], "how many ratings the average is based on"),
      ratingRange,
    ],
  }],
  complete: [{
    "@type": "EmployerAggregateRating",
    itemReviewed: { "@type": "Organization", name: "Example Ltd" },
    ratingValue: 4.2,
    ratingCount: 120,
  }],
};
