/**
 * Google Search's structured-data features, with each one's status as Google's documentation
 * states it (the search gallery, developers.google.com/search/docs/appearance/structured-data,
 * as of late 2025) and the page that documents it. The rules in google_rules.ts name their
 * feature by the `name` here; docs/schema.md prints this table.
 */

/** Whether Google shows the feature. */
export type FeatureStatus = "supported" | "limited" | "deprecated";

/** One of Google's rich-result features. */
export interface GoogleFeature {
  /** The feature's name, as findings' `rule` carries it after "google:". */
  name: string;
  status: FeatureStatus;
  /** For limited or deprecated features: since when (YYYY-MM or YYYY-MM-DD). */
  since: string | null;
  /** Google's documentation of the feature. */
  docs: string;
  /** What the status means, for limited and deprecated features. */
  note?: string;
}

const DOCS = "https://developers.google.com/search/docs/appearance/structured-data/";
const JUNE_2025 =
  'Google phased this feature out on 2025-06-12 ("Simplifying the search results page"); the markup does no harm but brings no rich result.';

/** Every feature, supported first. */
export const GOOGLE_FEATURES: readonly GoogleFeature[] = [
  { name: "Article", status: "supported", since: null, docs: `${DOCS}article` },
  { name: "Breadcrumb", status: "supported", since: null, docs: `${DOCS}breadcrumb` },
  { name: "Carousel", status: "supported", since: null, docs: `${DOCS}carousel` },
  { name: "Course list", status: "supported", since: null, docs: `${DOCS}course` },
  { name: "Dataset", status: "supported", since: null, docs: `${DOCS}dataset` },
  { name: "Discussion forum", status: "supported", since: null, docs: `${DOCS}discussion-forum` },
  { name: "Education Q&A", status: "supported", since: null, docs: `${DOCS}education-qa` },
  {
    name: "Employer aggregate rating",
    status: "supported",
    since: null,
    docs: `${DOCS}employer-rating`,
  },
  { name: "Event", status: "supported", since: null, docs: `${DOCS}event` },
  {
    name: "Image metadata",
    status: "supported",
    since: null,
    docs: `${DOCS}image-license-metadata`,
  },
  { name: "Job posting", status: "supported", since: null, docs: `${DOCS}job-posting` },
  { name: "Local business", status: "supported", since: null, docs: `${DOCS}local-business` },
  { name: "Loyalty program", status: "supported", since: null, docs: `${DOCS}loyalty-program` },
  { name: "Math solver", status: "supported", since: null, docs: `${DOCS}math-solvers` },
  { name: "Merchant listing", status: "supported", since: null, docs: `${DOCS}merchant-listing` },
  { name: "Movie carousel", status: "supported", since: null, docs: `${DOCS}movie` },
  { name: "Organization", status: "supported", since: null, docs: `${DOCS}organization` },
  { name: "Practice problem", status: "supported", since: null, docs: `${DOCS}practice-problems` },
  { name: "Product snippets", status: "supported", since: null, docs: `${DOCS}product-snippet` },
  { name: "Product variants", status: "supported", since: null, docs: `${DOCS}product-variants` },
  { name: "Profile page", status: "supported", since: null, docs: `${DOCS}profile-page` },
  { name: "Q&A", status: "supported", since: null, docs: `${DOCS}qapage` },
  { name: "Recipe", status: "supported", since: null, docs: `${DOCS}recipe` },
  { name: "Return policy", status: "supported", since: null, docs: `${DOCS}return-policy` },
  { name: "Review snippet", status: "supported", since: null, docs: `${DOCS}review-snippet` },
  {
    name: "Site name",
    status: "supported",
    since: null,
    docs: "https://developers.google.com/search/docs/appearance/site-names",
  },
  { name: "Software app", status: "supported", since: null, docs: `${DOCS}software-app` },
  {
    name: "Subscription and paywalled content",
    status: "supported",
    since: null,
    docs: `${DOCS}paywalled-content`,
  },
  { name: "Vacation rental", status: "supported", since: null, docs: `${DOCS}vacation-rental` },
  { name: "Video", status: "supported", since: null, docs: `${DOCS}video` },
  {
    name: "Speakable",
    status: "limited",
    since: null,
    docs: `${DOCS}speakable`,
    note: "Beta: Google Assistant, news publishers in English in the US only.",
  },
  {
    name: "FAQ",
    status: "limited",
    since: "2023-08",
    docs: `${DOCS}faqpage`,
    note:
      "Since August 2023 Google shows FAQ rich results only for well-known, authoritative government and health sites.",
  },
  {
    name: "HowTo",
    status: "deprecated",
    since: "2023-09",
    docs: "https://developers.google.com/search/blog/2023/08/howto-faq-changes",
    note: "Google stopped showing HowTo rich results in September 2023 (mobile and desktop).",
  },
  {
    name: "Sitelinks search box",
    status: "deprecated",
    since: "2024-11",
    docs: "https://developers.google.com/search/blog/2024/10/sitelinks-search-box",
    note: "Google retired the sitelinks search box in November 2024.",
  },
  {
    name: "Book actions",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}book`,
    note: JUNE_2025,
  },
  {
    name: "Course info",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}course-info`,
    note: JUNE_2025,
  },
  {
    name: "Fact check",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}factcheck`,
    note: JUNE_2025,
  },
  {
    name: "Estimated salary",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}estimated-salary`,
    note: JUNE_2025,
  },
  {
    name: "Learning video",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}learning-video`,
    note: JUNE_2025,
  },
  {
    name: "Special announcement",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}special-announcements`,
    note: JUNE_2025,
  },
  {
    name: "Vehicle listing",
    status: "deprecated",
    since: "2025-06",
    docs: `${DOCS}vehicle-listing`,
    note: JUNE_2025,
  },
];

/** A feature by name (undefined for names not in the table). */
export function googleFeature(name: string): GoogleFeature | undefined {
  return GOOGLE_FEATURES.find((f) => f.name === name);
}
