/** Fact check: retired in Google's "Simplifying the search results page" (2025-06-12). */
import type { GoogleFeature } from "../feature.ts";
import { JUNE_2025, JUNE_2025_AFTERLIFE } from "../simplified_results.ts";

export const factCheck: GoogleFeature = {
  name: "Fact check",
  status: "deprecated",
  since: "2025-06",
  url: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
  checked: "2026-11-26",
  note: JUNE_2025,
  afterlife: JUNE_2025_AFTERLIFE,
  rules: [],
  partTypes: ["ClaimReview"],
  aimedAt: (n) => n.types.includes("ClaimReview"),
};
