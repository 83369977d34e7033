/** Working out the name a site presents itself under, from the sources that state it. */
import type { PageFacts } from "../html/types.ts";
import { type JsonLdNode, nodesOfType, ORGANIZATION_TYPES, stringValues } from "./page_graph.ts";

/** Where each candidate name came from. */
export interface NameSources {
  jsonLdOrganization: string | null;
  jsonLdWebsite: string | null;
  ogSiteName: string | null;
  applicationName: string | null;
  /** The title segment that looks like a brand (split on | - – — : ·). */
  titleBrand: string | null;
}

/** Lowercase letters and digits only, for comparing names. */
export function nameKey(s: string): string {
  return s.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]/gu, "");
}

const MONTHS =
  "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december";

/** True for a title segment that is a date: "Feb. 1, 2016", "1 March 2024", "2024-03-01", "03/01/2024". */
export function isDateLike(s: string): boolean {
  const t = s.trim().toLowerCase().replace(/^(updated|published|posted)\s*:?\s*/, "");
  return new RegExp(
    `^(?:(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\.?\\s+(?:${MONTHS})\\.?,?\\s+\\d{4}|(?:${MONTHS})\\.?\\s+\\d{4})$`,
  )
    .test(t) ||
    /^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(t) || /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(t) ||
    /^\d{4}$/.test(t);
}

/** Common section names of news sites, blogs and shops: a title segment that is one is not a brand. */
const SECTIONS = new Set(
  (
    "home,news,latest,latest news,breaking news,world,local,national,politics,business,economy," +
    "money,markets,finance,tech,technology,science,health,sport,sports,football,culture,arts," +
    "entertainment,lifestyle,life,style,fashion,food,travel,opinion,opinions,editorial,analysis," +
    "video,videos,photos,gallery,podcasts,live,weather,education,environment,climate,blog,blogs," +
    "articles,article,stories,story,features,reviews,review,shop,store,products,docs," +
    "documentation,help,support,faq,careers,jobs,events,press,newsroom,media,magazine,uk,us,india"
  ).split(","),
);

/** True for a title segment that is a section name ("News", "Politics"). */
export function isSectionName(s: string): boolean {
  return SECTIONS.has(s.trim().toLowerCase().replace(/\s+/g, " "));
}

/** Legal-form words that do not change who a brand is ("Spiceworks Inc" is "Spiceworks"). */
const LEGAL_FORMS =
  /(?:\s*,?\s+(?:inc|incorporated|ltd|limited|llc|llp|plc|corp|corporation|co|company|gmbh|ag|sa|sas|sarl|srl|spa|bv|nv|oy|ab|as|asa|pty|pvt|kg|kk|se)\.?)+$/i;

/** A name's key for telling brands apart: {@link nameKey} without a legal form or leading "The". */
export function brandKey(s: string): string {
  return nameKey(s.trim().replace(LEGAL_FORMS, "").replace(/^the\s+/i, "")) || nameKey(s);
}

/** Collects the names a page gives itself. */
export function nameSources(facts: PageFacts, nodes: JsonLdNode[], domain: string): NameSources {
  const first = (v: unknown) => stringValues(v)[0] ?? null;
  const label = nameKey(domain.split(".")[0]);
  const segments = (facts.title ?? "").split(/\s+[|\-–—:·]\s+/).map((s) => s.trim()).filter(
    Boolean,
  );
  // A date ("Feb. 1, 2016") or a section name ("News", "Politics") is never the brand.
  const candidates = segments.filter((s) => !isDateLike(s) && !isSectionName(s));
  const titleBrand = candidates.find((s) => {
    const k = nameKey(s);
    return k && (k.includes(label) || label.includes(k));
  }) ?? (segments.length > 1
    // The last segment, unless it was a date or a section (then the title names no brand).
    ? (candidates.length && candidates.at(-1) === segments.at(-1) ? segments.at(-1)! : null)
    // A short title with no separator is usually the name itself ("Pete's Plumbing Tips").
    : candidates.length === 1 && candidates[0].split(/\s+/).length <= 5
    ? candidates[0]
    : null);
  return {
    jsonLdOrganization: first(nodesOfType(nodes, [...ORGANIZATION_TYPES])[0]?.data.name),
    jsonLdWebsite: first(nodesOfType(nodes, ["WebSite"])[0]?.data.name),
    ogSiteName: facts.openGraph["og:site_name"]?.trim() || null,
    applicationName: facts.meta["application-name"]?.trim() || null,
    titleBrand,
  };
}

/** The best single name: what the site states explicitly first, the title's brand part last. */
export function pickSiteName(s: NameSources): string | null {
  return s.jsonLdOrganization ?? s.ogSiteName ?? s.jsonLdWebsite ?? s.applicationName ??
    s.titleBrand ?? null;
}
