/**
 * What one of Google's rich-result features is, as one module states it (lib/engines/structured/google/
 * features/*.ts): its status as Google's own page gives it (with that page's URL and the day we
 * read it), the nodes its rules apply to, its required and recommended properties (the rules, built
 * with rule_kit.ts, which also says which value forms each property accepts), the markup that aims
 * at it once it is retired, and what the generator may produce for it. The registry
 * (registry.ts) lists the modules; the feature table, the rules, eligibility, the deprecation
 * notes, the generator and docs/schema.md all read them from there.
 */
import type { JsonObject } from "../terms.ts";
import type { Check, RuleNode } from "./rule_kit.ts";
import type { DatedSource } from "../../../kit/dated_source.ts";

/** Whether Google shows the feature. */
export type FeatureStatus = "supported" | "limited" | "deprecated";

/**
 * Where a feature's rules apply, and what they check there. A rule reads a node whose type is
 * one of {@link FeatureRule.types} or a schema.org subtype of one (superseded types left out),
 * unless Google's documentation names a more specific type of that subtype's line for another
 * rule or feature (the registry's `typesClaimed`: BlogPosting is an Article's, not a
 * SocialMediaPosting's, because Google's Article page names it), and where {@link
 * FeatureRule.where} says the node sits.
 */
export interface FeatureRule {
  /** The nodes the rules apply to, in words (docs/schema.md prints them). */
  nodes: string;
  /** The schema.org types Google's page names for these nodes; their subtypes count too. */
  types: string[];
  /**
   * Subtypes Google's page excludes by name (none does today; kept so that an exclusion is data,
   * written where the type list is, with the page's words in a comment).
   */
  excludes?: string[];
  /** Where on the page such a node must sit (top-level, a list entry...), when it matters. */
  where?(n: RuleNode): boolean;
  /** Required and recommended properties and the value forms they accept. */
  checks: Check[];
}

/** What the generator may produce for a feature. */
export interface FeatureGenerator {
  /**
   * Types the generator may make the page's primary entity (the page's own node, merged with what
   * the page states), in order of preference. Read only while the feature is not deprecated.
   */
  primary?: string[];
  /**
   * A WebPage subtype the generator may give the page (FAQPage), when the page shows what the
   * type describes. Read whatever the status: the module says why the markup is still worth it.
   */
  pageType?: string;
}

/**
 * One of Google's rich-result features, with its dated source: `url`, Google's page that documents
 * the feature and states its status, and `checked`, the day that page was last read for this entry.
 */
export interface GoogleFeature extends DatedSource {
  /** The feature's name, as findings' `rule` carries it after "google:". */
  name: string;
  status: FeatureStatus;
  /** For limited or deprecated features: since when (YYYY-MM or YYYY-MM-DD). */
  since: string | null;
  /** What the status means, for limited and deprecated features. */
  note?: string;
  /** How deprecation notes name the result (default: "<name> rich results"). */
  resultName?: string;
  /**
   * What the markup may still do once Google no longer shows the feature (other consumers), with
   * its sources; the deprecation note says it after {@link note}.
   */
  afterlife?: string;
  /** Where the rules apply; empty for a feature without rules of its own. Not read once deprecated. */
  rules: FeatureRule[];
  /**
   * Further schema.org types Google's page documents as this feature's (nested parts such as a
   * video's BroadcastEvent, or the markup of a retired feature): a subtype of another rule's
   * type that is named here belongs to this feature, not to that rule.
   */
  partTypes?: string[];
  /**
   * A feature that adds to the items of other features (paywalled parts) rather than owning a
   * kind of item: its types neither claim subtypes from other rules nor lose them.
   */
  overlay?: boolean;
  /**
   * Complete items for the feature (our own values, shaped as Google's page describes them),
   * between them holding a node of every type the rules name: `tests/google_feature_types_test.ts`
   * puts each of those types and each of their subtypes in its place, and every one must be
   * eligible. Required for a supported feature with rules.
   */
  complete?: JsonObject[];
  /** For a limited or deprecated feature: whether a node's markup aims at it. */
  aimedAt?(n: RuleNode): boolean;
  generator?: FeatureGenerator;
}

/** Google Search Central's structured-data documentation, where most features have a page. */
export const SD_DOCS = "https://developers.google.com/search/docs/appearance/structured-data/";
