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
}

/** What one answer says about the site. */
export interface Presence {
  mentioned: boolean;
  cited: boolean;
  competitorOnly: boolean;
  retrievedNotCited: boolean;
}

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
  const mentioned = namesSite(answer.text, site);
  const absent = !mentioned && !isCited;
  const rivals = site.competitors.length
    ? site.competitors.some((c) => citedSites.has(c))
    : [...citedSites].some((s) => s !== site.domain);
  const retrieved = sites(answer.sources.filter((s) => s.kind === "retrieved" && s.host !== null));
  return {
    mentioned,
    cited: isCited,
    competitorOnly: absent && rivals,
    retrievedNotCited: !isCited && retrieved.has(site.domain),
  };
}

/** True when `text` names the brand or the site's domain. */
export function namesSite(text: string, site: Pick<SiteIdentity, "domain" | "brand">): boolean {
  const plain = normalise(text);
  const brand = site.brand ? normalise(site.brand).trim() : "";
  if (brand.length >= MIN_BRAND_CHARS && hasPhrase(plain, brand)) return true;
  return hasHost(plain, site.domain.toLowerCase());
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
 * A phrase as a whole, not inside a longer word at either end. Both texts are normalised (one
 * space between words), so this is a plain search: no RegExp is built from the brand, and the
 * search is linear in the answer (occurrences).
 */
function hasPhrase(plain: string, phrase: string): boolean {
  for (const at of occurrences(plain, phrase)) {
    if (isWordCodePoint(codePointBefore(plain, at))) continue;
    if (isWordCodePoint(plain.codePointAt(at + phrase.length))) continue;
    return true;
  }
  return false;
}

/**
 * The domain or any subdomain of it, not inside a longer host name or word: in each run of
 * letters, digits and `_.-` (a host-like token), the domain's labels whole, after only non-empty
 * labels of letters, digits and `-`, and followed by nothing or a dot. One pass over the text.
 */
function hasHost(plain: string, domain: string): boolean {
  const want = domain.split(".");
  let start = -1;
  let i = 0;
  while (i <= plain.length) {
    const cp = i < plain.length ? plain.codePointAt(i)! : undefined;
    const inToken = cp !== undefined &&
      (isWordCodePoint(cp) || cp === 0x5f || cp === 0x2e || cp === 0x2d);
    if (inToken && start < 0) start = i;
    if (!inToken && start >= 0) {
      if (tokenNamesHost(plain.slice(start, i).split("."), want)) return true;
      start = -1;
    }
    i += cp !== undefined && cp > 0xffff ? 2 : 1;
  }
  return false;
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
