/**
 * Working out the name a site presents itself under, from the sources that state it: one choice
 * ({@link chooseSiteName}) for the generator, the visibility report and the off-site lookups.
 */
import type { PageFacts } from "../html/types.ts";
import { charsOf, isSpace } from "../../kit/text/trim.ts";
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

/** Month names and their abbreviations, as a title's date writes them. */
const MONTHS = new Set(
  ("jan,feb,mar,apr,may,jun,jul,aug,sep,sept,oct,nov,dec,january,february,march,april,june,july," +
    "august,september,october,november,december").split(","),
);

/** "Feb. 1, 2016", "March 2024": the month word is captured and looked up in {@link MONTHS}. */
const MONTH_FIRST = /^([a-z]{3,9})\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}$/;
/** "1 March 2024", "1st Feb., 2016". */
const DAY_FIRST = /^\d{1,2}(?:st|nd|rd|th)?\.?\s+([a-z]{3,9})\.?,?\s+\d{4}$/;

/** True for a title segment that is a date: "Feb. 1, 2016", "1 March 2024", "2024-03-01", "03/01/2024". */
export function isDateLike(s: string): boolean {
  const t = s.trim().toLowerCase().replace(/^(updated|published|posted)\s*:?\s*/, "");
  const month = t.match(MONTH_FIRST)?.[1] ?? t.match(DAY_FIRST)?.[1];
  return (month !== undefined && MONTHS.has(month)) ||
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
const LEGAL_FORMS = new Set(
  ("inc,incorporated,ltd,limited,llc,llp,plc,corp,corporation,co,company,gmbh,ag,sa,sas,sarl,srl," +
    "spa,bv,nv,oy,ab,as,asa,pty,pvt,kg,kk,se").split(","),
);

/**
 * `name` without the legal forms that end it ("Acme Co., Ltd." is "Acme"): each a word after
 * white space, with an optional "." after it and an optional comma before the space. Read from
 * the end in one pass: the regular expression this replaces backtracked exponentially on runs
 * of spaced short words ("a   co   co   co ...").
 */
export function withoutLegalForms(name: string): string {
  let end = name.length;
  for (;;) {
    let wordEnd = end;
    if (wordEnd > 0 && name.charCodeAt(wordEnd - 1) === 0x2e) wordEnd--; // "."
    let wordStart = wordEnd;
    while (wordStart > 0 && isAsciiLetter(name.charCodeAt(wordStart - 1))) wordStart--;
    if (wordStart === wordEnd || !LEGAL_FORMS.has(name.slice(wordStart, wordEnd).toLowerCase())) {
      return name.slice(0, end);
    }
    let cut = wordStart;
    while (cut > 0 && isSpace(name.charCodeAt(cut - 1))) cut--;
    if (cut === wordStart) return name.slice(0, end);
    if (cut > 0 && name.charCodeAt(cut - 1) === 0x2c) { // ","
      cut--;
      while (cut > 0 && isSpace(name.charCodeAt(cut - 1))) cut--;
    }
    end = cut;
  }
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** A name's key for telling brands apart: {@link nameKey} without a legal form or leading "The". */
export function brandKey(s: string): string {
  return nameKey(withoutLegalForms(s.trim()).replace(/^the\s+/i, "")) || nameKey(s);
}

/** The title's separators, each written between spaces ("Shop | News", "Shop - News"). */
const TITLE_SEPARATORS = charsOf("|-–—:·");

/**
 * A title's segments, split where white space, a separator and white space meet (as
 * `split(/\s+[|\-–—:·]\s+/)` does, in one pass: that expression retries each white-space run
 * from every space in it).
 */
export function titleSegments(title: string): string[] {
  const out: string[] = [];
  let piece = 0;
  let i = 0;
  while (i < title.length) {
    if (!isSpace(title.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    while (j < title.length && isSpace(title.charCodeAt(j))) j++;
    if (
      j + 1 < title.length && TITLE_SEPARATORS(title.charCodeAt(j)) &&
      isSpace(title.charCodeAt(j + 1))
    ) {
      let k = j + 1;
      while (k < title.length && isSpace(title.charCodeAt(k))) k++;
      out.push(title.slice(piece, i));
      piece = i = k;
    } else i = j;
  }
  out.push(title.slice(piece));
  return out;
}

/** Collects the names a page gives itself. */
export function nameSources(facts: PageFacts, nodes: JsonLdNode[], domain: string): NameSources {
  const first = (v: unknown) => stringValues(v)[0] ?? null;
  const label = nameKey(domain.split(".")[0]);
  const segments = titleSegments(facts.title ?? "").map((s) => s.trim()).filter(
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

/** Where a candidate site name came from, strongest first (the order that breaks ties). */
export type NameSource =
  | "website"
  | "organization"
  | "og:site_name"
  | "application-name"
  | "title"
  | "domain spelling";

/** One name the page gives itself, and how many other sources agree with it. */
export interface NameCandidate {
  name: string;
  source: NameSource;
  /** Other sources (and the domain) that name the same brand. */
  support: number;
}

// Google: WebSite structured data is "the most important" way to state a preference; its site-name
// system also reads og:site_name, the title and headings (site-names page, checked 2026-11-26).
const STRENGTH: NameSource[] = [
  "website",
  "organization",
  "og:site_name",
  "application-name",
  "title",
  "domain spelling",
];

/** Whether two names name the same brand ("Reuters" and "Reuters.com", "Spiceworks Inc"). */
function sameBrand(a: string, b: string): boolean {
  const x = brandKey(a);
  const y = brandKey(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= 4 && long.includes(short);
}

/** A name too short or too generic to be a brand unless something agrees ("U.S.", "News"). */
function sectionLike(name: string): boolean {
  return isSectionName(name) || nameKey(name).length <= 3;
}

/**
 * The site's name, corroborated: every source the page names itself in (Organization and
 * WebSite markup of any format, og:site_name, application-name, the title's brand segment, a
 * name in the markup or a logo's alt text that spells the domain) is a candidate; each counts the
 * other sources and the domain's label that agree with it; the most supported wins, ties going to
 * the stronger source. A short or section-like value ("U.S.", "Politics") that nothing agrees with
 * loses to any other candidate, and a title without a separator counts only when something agrees
 * with it. Returns the candidates too, strongest first (docs/schema.md, "How the site name is
 * chosen").
 */
export function siteNameChoice(
  facts: PageFacts,
  nodes: JsonLdNode[],
  domain: string,
): { name: string | null; candidates: NameCandidate[] } {
  const s = nameSources(facts, nodes, domain);
  const label = nameKey(domain.replace(/^www\./, "").split(".")[0]);
  const separated = /\s[|\-–—:·]\s/.test(facts.title ?? "");
  const raw: { name: string; source: NameSource }[] = [];
  const add = (name: string | null, source: NameSource) => {
    const t = name?.trim();
    if (t && t.length <= 120) raw.push({ name: t, source });
  };
  add(s.jsonLdOrganization, "organization");
  add(s.ogSiteName, "og:site_name");
  add(s.jsonLdWebsite, "website");
  add(s.applicationName, "application-name");
  add(s.titleBrand, "title");
  // A name in the markup or a logo's alt text that spells the domain ("Blue Bean" on bluebean.test).
  add(
    [
      ...nodes.flatMap((n) => stringValues(n.data.name)),
      ...facts.images.map((i) => i.alt ?? ""),
    ].find((x) => x.length <= 80 && label && nameKey(x) === label) ?? null,
    "domain spelling",
  );
  const agreesWithDomain = (name: string) => {
    const k = brandKey(name);
    return !!label && !!k &&
      (k === label || (k.length >= 4 && label.includes(k)) ||
        (label.length >= 4 && k.includes(label)));
  };
  let candidates: NameCandidate[] = raw.map((c) => ({
    ...c,
    support: new Set(
      raw.filter((o) => o.source !== c.source && sameBrand(o.name, c.name)).map((o) => o.source),
    ).size + (agreesWithDomain(c.name) ? 1 : 0),
  }));
  // A title that is one phrase names the page's subject more often than its publisher.
  candidates = candidates.filter((c) => c.source !== "title" || separated || c.support > 0);
  const strong = candidates.filter((c) => !(sectionLike(c.name) && c.support === 0));
  if (strong.length) candidates = strong;
  candidates.sort((a, b) =>
    b.support - a.support || STRENGTH.indexOf(a.source) - STRENGTH.indexOf(b.source)
  );
  return { name: candidates[0]?.name ?? null, candidates };
}

/** The site's one corroborated name (see {@link siteNameChoice}), or null. */
export function chooseSiteName(
  facts: PageFacts,
  nodes: JsonLdNode[],
  domain: string,
): string | null {
  return siteNameChoice(facts, nodes, domain).name;
}
