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
  if (brand.length >= MIN_BRAND_CHARS && phrase(brand).test(plain)) return true;
  const domain = escape(site.domain.toLowerCase());
  // The domain or any subdomain of it, not inside a longer host name or word.
  return new RegExp(
    `(?<![\\p{L}\\p{N}_.-])(?:[\\p{L}\\p{N}-]+\\.)*${domain}(?![\\p{L}\\p{N}_-])`,
    "u",
  )
    .test(plain);
}

/** Lower case, one kind of apostrophe and dash, runs of white space as one space. */
function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2010-\u2015]/g, "-").replace(/\s+/g, " ");
}

/** A phrase as a whole: not inside a longer word at either end. */
function phrase(text: string): RegExp {
  const words = escape(text).replace(/ /g, "\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, "u");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
