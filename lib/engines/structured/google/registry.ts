/**
 * The registry of Google's rich-result features: one module each (features/*.ts), listed here in
 * the order their rules apply (and their findings are listed). Everything that needs Google's
 * features reads them from here: the feature table (docs/schema.md, checked by a test), the rules
 * and their findings, eligibility, the deprecation notes, and the generator's primary and page
 * types. Adding a feature is one module plus one line in {@link FEATURES}.
 */
import type { FeatureRule, GoogleFeature } from "./feature.ts";
import { ancestors, isA, typeInfo } from "../vocabulary.ts";
import type { DeprecationNote, RuleIssue, RuleNode } from "./rule_kit.ts";
import { localBusiness } from "./features/local_business.ts";
import { organization } from "./features/organization.ts";
import { article } from "./features/article.ts";
import { productSnippets } from "./features/product_snippets.ts";
import { merchantListing } from "./features/merchant_listing.ts";
import { productVariants } from "./features/product_variants.ts";
import { reviewSnippet } from "./features/review_snippet.ts";
import { employerRating } from "./features/employer_rating.ts";
import { breadcrumb } from "./features/breadcrumb.ts";
import { siteName } from "./features/site_name.ts";
import { event } from "./features/event.ts";
import { recipe } from "./features/recipe.ts";
import { video } from "./features/video.ts";
import { jobPosting } from "./features/job_posting.ts";
import { softwareApp } from "./features/software_app.ts";
import { dataset } from "./features/dataset.ts";
import { discussionForum } from "./features/discussion_forum.ts";
import { profilePage } from "./features/profile_page.ts";
import { qa } from "./features/qa.ts";
import { imageMetadata } from "./features/image_metadata.ts";
import { movieCarousel } from "./features/movie_carousel.ts";
import { vacationRental } from "./features/vacation_rental.ts";
import { courseList } from "./features/course_list.ts";
import { educationQa } from "./features/education_qa.ts";
import { mathSolver } from "./features/math_solver.ts";
import { returnPolicy } from "./features/return_policy.ts";
import { loyaltyProgram } from "./features/loyalty_program.ts";
import { carousel } from "./features/carousel.ts";
import { paywalledContent } from "./features/paywalled_content.ts";
import { speakable } from "./features/speakable.ts";
import { faq } from "./features/faq.ts";
import { practiceProblem } from "./features/practice_problem.ts";
import { howTo } from "./features/howto.ts";
import { sitelinksSearchBox } from "./features/sitelinks_search_box.ts";
import { bookActions } from "./features/book_actions.ts";
import { courseInfo } from "./features/course_info.ts";
import { factCheck } from "./features/fact_check.ts";
import { estimatedSalary } from "./features/estimated_salary.ts";
import { learningVideo } from "./features/learning_video.ts";
import { specialAnnouncement } from "./features/special_announcement.ts";
import { vehicleListing } from "./features/vehicle_listing.ts";

/** Every feature, in the order its rules apply. */
const FEATURES: GoogleFeature[] = [
  localBusiness,
  organization,
  article,
  productSnippets,
  merchantListing,
  productVariants,
  reviewSnippet,
  employerRating,
  breadcrumb,
  siteName,
  event,
  recipe,
  video,
  jobPosting,
  softwareApp,
  dataset,
  discussionForum,
  profilePage,
  qa,
  imageMetadata,
  movieCarousel,
  vacationRental,
  courseList,
  educationQa,
  mathSolver,
  returnPolicy,
  loyaltyProgram,
  carousel,
  paywalledContent,
  speakable,
  faq,
  practiceProblem,
  howTo,
  sitelinksSearchBox,
  bookActions,
  courseInfo,
  factCheck,
  estimatedSalary,
  learningVideo,
  specialAnnouncement,
  vehicleListing,
];

/** Every registered feature, in the order its rules apply. */
export function googleFeatures(): readonly GoogleFeature[] {
  return FEATURES;
}

/**
 * Adds a feature to the registry (after the others) and returns what removes it again: how a
 * test sees a new feature reach the table, the rules, eligibility and the docs.
 */
export function registerGoogleFeature(feature: GoogleFeature): () => void {
  if (FEATURES.some((f) => f.name === feature.name)) {
    throw new Error(`a Google feature named "${feature.name}" is already registered`);
  }
  FEATURES.push(feature);
  lineCache.clear();
  return () => {
    const at = FEATURES.indexOf(feature);
    if (at >= 0) FEATURES.splice(at, 1);
    lineCache.clear();
  };
}

/** A feature by name (undefined for names not in the registry). */
export function googleFeature(name: string): GoogleFeature | undefined {
  return FEATURES.find((f) => f.name === name);
}

/** Whether Google still reads the feature's rules (deprecated features only get a note). */
const live = (f: GoogleFeature) => f.status !== "deprecated";

/** Per type: the most specific types on its line that a (non-overlay) feature names. */
const lineCache = new Map<string, readonly string[]>();

/**
 * The most specific types named by Google's pages (a rule's types or a feature's part types, of
 * features that own their items) that `type` is or inherits from: BlogPosting's are
 * [BlogPosting] (the Article page names it), DiscussionForumPosting's [DiscussionForumPosting],
 * ReviewNewsArticle's [NewsArticle, Review].
 */
function mostSpecificNamed(type: string): readonly string[] {
  const cached = lineCache.get(type);
  if (cached) return cached;
  const line = ancestors(type);
  const named = new Set<string>();
  for (const f of FEATURES) {
    if (f.overlay) continue;
    for (const t of [...f.rules.flatMap((r) => r.types), ...(f.partTypes ?? [])]) {
      if (line.has(t)) named.add(t);
    }
  }
  const most = [...named].filter((n) => ![...named].some((m) => m !== n && isA(m, n)));
  if (lineCache.size > 5000) lineCache.clear();
  lineCache.set(type, most);
  return most;
}

/**
 * Whether a node's type is one a rule reads: one of the types it names or a subtype (not a
 * superseded type, not one Google excludes by name), and, unless the feature is an overlay, not a
 * subtype whose own line Google documents more specifically for another rule.
 */
export function typeFitsRule(type: string, feature: GoogleFeature, rule: FeatureRule): boolean {
  const info = typeInfo(type);
  if (!info || info.supersededBy) return false;
  const line = ancestors(type);
  const mine = rule.types.filter((t) => line.has(t));
  if (!mine.length || rule.excludes?.some((e) => line.has(e))) return false;
  if (feature.overlay) return true;
  const most = mostSpecificNamed(type);
  return mine.some((t) => most.includes(t));
}

/** Whether a rule of a feature applies to a node: its type fits, and it sits where it must. */
export function ruleApplies(feature: GoogleFeature, rule: FeatureRule, n: RuleNode): boolean {
  return n.types.some((t) => typeFitsRule(t, feature, rule)) && (!rule.where || rule.where(n));
}

/** Features whose rules a node is read for. */
export function featuresOf(n: RuleNode): string[] {
  return FEATURES.filter((f) => live(f) && f.rules.some((r) => ruleApplies(f, r, n))).map((f) =>
    f.name
  );
}

/** Google's rules for one node: every issue, tagged with its feature. */
export function googleIssues(n: RuleNode): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const f of FEATURES) {
    if (!live(f)) continue;
    for (const rule of f.rules) {
      if (!ruleApplies(f, rule, n)) continue;
      const found: RuleIssue[] = [];
      for (const c of rule.checks) c(n, found);
      for (const i of found) out.push({ ...i, feature: f.name });
    }
  }
  return out;
}

/** Retired or restricted rich results that a node's markup aims at. */
export function deprecationsFor(n: RuleNode): DeprecationNote[] {
  const out: DeprecationNote[] = [];
  for (const f of FEATURES) {
    if (f.status === "supported" || !f.since || !f.aimedAt?.(n)) continue;
    out.push({
      feature: f.resultName ?? `${f.name} rich results`,
      since: f.since,
      message: [
        f.note,
        f.afterlife ??
          "The markup is valid and other search engines and AI assistants may still read it; just do not expect this rich result in Google.",
      ].filter(Boolean).join(" "),
    });
  }
  return out;
}

/** The feature a deprecation note's label names. */
export function featureOfNote(label: string): GoogleFeature | undefined {
  return FEATURES.find((f) => (f.resultName ?? `${f.name} rich results`) === label);
}

/** The types the generator may make a page's primary entity, in order of preference. */
export function generatorPrimaryTypes(): string[] {
  return [...new Set(FEATURES.filter(live).flatMap((f) => f.generator?.primary ?? []))];
}

/** The WebPage subtypes the generator may give a page (when the page shows what they describe). */
export function generatorPageTypes(): string[] {
  return FEATURES.flatMap((f) => f.generator?.pageType ? [f.generator.pageType] : []);
}

/** The feature table as docs/schema.md prints it (supported first, then limited, deprecated). */
export function featureTableMarkdown(): string {
  const order = { supported: 0, limited: 1, deprecated: 2 };
  const rows = [...FEATURES].sort((a, b) =>
    order[a.status] - order[b.status] ||
    (a.status === "supported" ? a.name.localeCompare(b.name) : 0)
  ).map((f) => [
    f.name,
    f.status,
    f.since ?? "",
    f.checked,
    [...new Set([...f.rules.flatMap((r) => r.types), ...(f.partTypes ?? [])])].join(", "),
    `<${f.url}>`,
  ]);
  const head = ["Feature", "Status", "Since", "Checked on", "Types named", "Google's page"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)]
    .join("\n");
}
