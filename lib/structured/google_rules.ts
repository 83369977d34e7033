/**
 * Google's rich-result requirements (developers.google.com/search/docs/appearance/structured-data)
 * for the features people most often mark up: a missing required property is an error (the
 * page is not eligible), a missing recommended one a warning; an invalid value is an error for a
 * required property and a warning for a recommended one. Messages say what to add, and how.
 *
 * Features: Organization, LocalBusiness, Article (Article/BlogPosting/NewsArticle and other
 * Article subtypes), Product snippets (Product, Offer, AggregateOffer, AggregateRating, Review),
 * BreadcrumbList, WebSite (site names), Event, Recipe, VideoObject. Retired or restricted
 * features (FAQ, HowTo, the sitelinks search box) are {@link deprecationsFor} notes, not errors.
 */
import { googleFeature } from "./google_features.ts";
import { asList, type JsonObject, typesOf } from "./terms.ts";
import {
  type DeprecationNote,
  type Feature,
  nodeOf,
  type RuleIssue,
  type RuleNode,
} from "./google_rule_kit.ts";
import { COMMERCE_FEATURES } from "./google_rules_commerce.ts";
import { CONTENT_FEATURES } from "./google_rules_content.ts";

export {
  type DeprecationNote,
  isCalendarDate,
  isUrlLike,
  nodeOf,
  type RuleIssue,
  type RuleNode,
  valuesAt,
} from "./google_rule_kit.ts";

/** Every feature, in the order its rules are applied (and its issues listed). */
const FEATURES: Feature[] = [...COMMERCE_FEATURES, ...CONTENT_FEATURES];

/** Features whose rules a node is read for (names as in the feature table). */
export function featuresOf(n: RuleNode): string[] {
  return [...new Set(FEATURES.filter((f) => f.applies(n)).map((f) => f.name))];
}

/** Google's rules for one node: every issue, tagged with its feature. */
export function googleIssues(n: RuleNode): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const f of FEATURES) {
    if (!f.applies(n)) continue;
    const found: RuleIssue[] = [];
    for (const c of f.checks) c(n, found);
    for (const i of found) out.push({ ...i, feature: f.name });
  }
  return out;
}

/** Types whose rich result Google retired or restricted, by feature name. */
const RETIRED_TYPES: [string, string][] = [
  ["FAQPage", "FAQ"],
  ["HowTo", "HowTo"],
  ["ClaimReview", "Fact check"],
  ["SpecialAnnouncement", "Special announcement"],
  ["Occupation", "Estimated salary"],
];

/** Retired or restricted rich results that a node's markup aims at. */
export function deprecationsFor(n: RuleNode): DeprecationNote[] {
  const out: DeprecationNote[] = [];
  const note = (name: string) => {
    const f = googleFeature(name);
    if (f?.since) {
      out.push({
        feature: `${f.name} rich results`,
        since: f.since,
        message: `${
          f.note ?? ""
        } The markup is valid and other search engines and AI assistants still read it; just do not expect this rich result in Google.`
          .trim(),
      });
    }
  };
  for (const [type, feature] of RETIRED_TYPES) if (n.types.includes(type)) note(feature);
  if (n.types.includes("WebSite")) {
    const actions = asList(n.data.potentialAction).map((v) => nodeOf(n, v)).filter((
      x,
    ): x is JsonObject => !!x);
    if (actions.some((a) => typesOf(a).includes("SearchAction"))) {
      out.push({
        feature: "Sitelinks search box",
        since: "2024-11",
        message:
          "Google retired the sitelinks search box in November 2024. This WebSite SearchAction is harmless but no longer shown; you may remove it.",
      });
    }
  }
  return out;
}
