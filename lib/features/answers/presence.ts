/**
 * Whether one answer names the site and cites it, the way the report counts them:
 * - **mentioned**: the text names the brand (as a whole phrase, case and spacing aside) or the
 *   site's domain (example.com, www.example.com, shop.example.com; never a longer name that only
 *   ends the same, notexample.com);
 * - **cited**: a source the answer cites is on the site's registrable domain (tldts, private
 *   suffixes included: shop.example.co.uk is example.co.uk; user.github.io is its own site);
 * - **competitor only**: the site is neither named nor cited, and a competitor the owner listed is
 *   cited (with no competitor listed: any other site is cited);
 * - **retrieved, not cited**: the search returned a page of the site but the answer cites none.
 *
 * Every source the answer gives is read (a site cited as the 25th of 33 sources is cited); the
 * display cap applies only to what is kept for reading later. Beside the four verdicts: the best
 * rank at which the site is cited, and the share-of-voice marks of the site and each competitor
 * (named, cited, named first).
 */
import { getDomain } from "tldts";
import { occurrences } from "../../kit/text/occurrences.ts";
import type { AnswerSource } from "./provider.ts";

/** The site an answer is judged against. */
export interface SiteIdentity {
  /** The site's registrable domain ("example.com"). */
  domain: string;
  /** The brand name, or null (then only the domain counts as a mention). */
  brand: string | null;
  /** Competitors' registrable domains the owner listed. */
  competitors: string[];
  /** A competitor's name the owner gave, by its domain (else only its domain is looked for). */
  competitorNames?: Record<string, string>;
}

/** How one answer treats one of the tracked sites (the site itself or a competitor). */
export interface VoiceMark {
  /** The registrable domain. */
  domain: string;
  /** The text names it (its name or its domain). */
  mentioned: boolean;
  /** A source the answer cites is on it. */
  cited: boolean;
  /**
   * It comes first among the tracked sites: named first in the text, or, when the text names
   * none of them, cited first.
   */
  first: boolean;
}

/** What one answer says about the site. */
export interface Presence {
  mentioned: boolean;
  cited: boolean;
  competitorOnly: boolean;
  retrievedNotCited: boolean;
  /** The best rank (from 1) at which the answer cites the site, or null when it does not. */
  citedRank: number | null;
  /** The site first, then each competitor: the marks share of voice counts. */
  voice: VoiceMark[];
  /**
   * The registrable domains the answer cites, every source read (at most
   * {@link MAX_CITED_SITES}): what stability compares between answers.
   */
  citedSites: string[];
}

/** The most cited sites kept per answer (far beyond a documented answer's tens of sources). */
export const MAX_CITED_SITES = 200;

/** Brands shorter than this are not looked for in text (too many false matches). */
const MIN_BRAND_CHARS = 3;

/** The registrable domain of a host name (private suffixes included), or the host itself. */
export function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
  return getDomain(h, { allowPrivateDomains: true }) ?? h;
}

/** How an answer stands for the site. */
export function presenceOf(
  answer: { text: string; sources: AnswerSource[] },
  site: SiteIdentity,
): Presence {
  const cited = answer.sources.filter((s) => s.kind === "cited" && s.host !== null);
  const sites = (list: AnswerSource[]) => new Set(list.map((s) => siteOf(s.host!)));
  const citedSites = sites(cited);
  const isCited = citedSites.has(site.domain);
  const plain = normalise(answer.text);
  const mentioned = mentionAt(plain, site.domain, site.brand) >= 0;
  const absent = !mentioned && !isCited;
  const rivals = site.competitors.length
    ? site.competitors.some((c) => citedSites.has(c))
    : [...citedSites].some((s) => s !== site.domain);
  const retrieved = sites(answer.sources.filter((s) => s.kind === "retrieved" && s.host !== null));
  const bestRank = (domain: string) => {
    const ranks = cited.filter((s) => siteOf(s.host!) === domain).map((s) => s.rank);
    return ranks.length ? Math.min(...ranks) : null;
  };
  const tracked = [
    { domain: site.domain, name: site.brand },
    ...site.competitors.map((c) => ({ domain: c, name: site.competitorNames?.[c] ?? null })),
  ].map((t) => ({
    domain: t.domain,
    at: mentionAt(plain, t.domain, t.name),
    rank: bestRank(t.domain),
  }));
  const named = tracked.filter((t) => t.at >= 0);
  const leader = named.length
    ? named.reduce((a, b) => (b.at < a.at ? b : a))
    : tracked.filter((t) => t.rank !== null).reduce<typeof tracked[number] | null>(
      (a, b) => (a === null || b.rank! < a.rank! ? b : a),
      null,
    );
  return {
    mentioned,
    cited: isCited,
    competitorOnly: absent && rivals,
    retrievedNotCited: !isCited && retrieved.has(site.domain),
    citedRank: bestRank(site.domain),
    voice: tracked.map((t) => ({
      domain: t.domain,
      mentioned: t.at >= 0,
      cited: t.rank !== null,
      first: leader !== null && leader.domain === t.domain,
    })),
    citedSites: [...citedSites].slice(0, MAX_CITED_SITES),
  };
}

/**
 * Where the normalised `plain` text first names a site: its name (as a whole phrase, 3 characters
 * or more) or its domain; -1 when it does not. Linear in the text (no RegExp built from a name).
 */
function mentionAt(plain: string, domain: string, name: string | null): number {
  const brand = name ? normalise(name).trim() : "";
  const byName = brand.length >= MIN_BRAND_CHARS ? phraseAt(plain, brand) : -1;
  const byDomain = hostAt(plain, domain.toLowerCase());
  if (byName < 0) return byDomain;
  return byDomain < 0 ? byName : Math.min(byName, byDomain);
}

/** True when `text` names the brand or the site's domain. */
export function namesSite(text: string, site: Pick<SiteIdentity, "domain" | "brand">): boolean {
  return mentionAt(normalise(text), site.domain, site.brand) >= 0;
}

/** Lower case, one kind of apostrophe and dash, runs of white space as one space. */
function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2010-\u2015]/g, "-").replace(/\s+/g, " ");
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Whether the code point is a letter or a digit. */
function isWordCodePoint(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 0x80) {
    return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  }
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/** The code point that ends just before `index`. */
function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}

/**
 * Where a phrase first stands whole, not inside a longer word at either end (-1: nowhere). Both texts are normalised (one
 * space between words), so this is a plain search: no RegExp is built from the brand, and the
 * search is linear in the answer (occurrences).
 */
function phraseAt(plain: string, phrase: string): number {
  for (const at of occurrences(plain, phrase)) {
    if (isWordCodePoint(codePointBefore(plain, at))) continue;
    if (isWordCodePoint(plain.codePointAt(at + phrase.length))) continue;
    return at;
  }
  return -1;
}

/**
 * The domain or any subdomain of it, not inside a longer host name or word: in each run of
 * letters, digits and `_.-` (a host-like token), the domain's labels whole, after only non-empty
 * labels of letters, digits and `-`, and followed by nothing or a dot. One pass over the text;
 * the start of the first token that names it, or -1.
 */
function hostAt(plain: string, domain: string): number {
  const want = domain.split(".");
  let start = -1;
  let i = 0;
  while (i <= plain.length) {
    const cp = i < plain.length ? plain.codePointAt(i)! : undefined;
    const inToken = cp !== undefined &&
      (isWordCodePoint(cp) || cp === 0x5f || cp === 0x2e || cp === 0x2d);
    if (inToken && start < 0) start = i;
    if (!inToken && start >= 0) {
      if (tokenNamesHost(plain.slice(start, i).split("."), want)) return start;
      start = -1;
    }
    i += cp !== undefined && cp > 0xffff ? 2 : 1;
  }
  return -1;
}

/** Whether the labels of a token hold the wanted labels after only well-formed labels. */
function tokenNamesHost(labels: string[], want: string[]): boolean {
  for (let at = 0; at + want.length <= labels.length; at++) {
    let same = true;
    for (let k = 0; k < want.length && same; k++) same = labels[at + k] === want[k];
    if (same) return true;
    // A label before the domain must be non-empty and without `_`, as a host name's are.
    if (labels[at] === "" || labels[at].includes("_")) return false;
  }
  return false;
}
