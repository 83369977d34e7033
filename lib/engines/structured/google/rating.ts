/**
 * Rules shared by the features that read ratings (Review snippet, Employer aggregate rating): the
 * value within its scale, and what a stand-alone rating or review is about.
 */
import { asList } from "../terms.ts";
import { type Check, required, valuesAt } from "./rule_kit.ts";
import { isStandalone } from "./placement.ts";

/** ratingValue within worstRating..bestRating (1..5 when not stated). */
export const ratingRange: Check = (n, out) => {
  // Percentages and fractions carry their own scale.
  const value = Number(String(asList(n.data.ratingValue)[0] ?? "").trim());
  if (!Number.isFinite(value)) return;
  const best = Number(asList(n.data.bestRating)[0] ?? 5);
  const worst = Number(asList(n.data.worstRating)[0] ?? 1);
  if (value > best || value < worst) {
    out.push({
      severity: "error",
      property: "ratingValue",
      feature: "",
      message:
        `ratingValue ${value} is outside ${worst}-${best}; set "bestRating" and "worstRating" to the scale you use.`,
    });
  }
};

/** A stand-alone rating or review names the thing it rates. */
export const itemReviewed: Check = (n, out) => {
  if (!isStandalone(n)) return;
  required("itemReviewed", "the thing rated, with its name", "node")(n, out);
  if (valuesAt(n, "itemReviewed").length) {
    required("itemReviewed.name", "the name of the thing rated")(n, out);
  }
};
