/**
 * English Wikipedia presence: is there an article about this site's entity?
 *
 * Evidence, strongest first:
 * 1. The Wikidata item matched by the Wikidata check has an enwiki sitelink.
 * 2. One of the top search results for the entity name links to the domain (an article about a
 *    company links its official site, usually from the infobox). A title match alone is not
 *    evidence: "Acme" may well be an article about another Acme.
 *
 * Without an entity name the search uses the domain itself: CirrusSearch indexes an infobox's
 * website text, so this still finds the article in the common case, and the same link evidence
 * is required. Absence is reported as "not_found" only when Wikidata and the search both
 * answered.
 * @module
 */
import { z } from "zod";
import type { OffSiteCheck } from "./types.ts";
import { getJson, type Lookup, type LookupContext, ok } from "./lookup.ts";
import { apiUrl, quote, safeTitle, sameSite, wikiPageUrl } from "./site.ts";
import type { Sitelink } from "./wikidata.ts";

/** Search results whose links are checked. */
const TOP_RESULTS = 3;

/** What the Wikipedia search found: the first article linking to the domain, if any. */
export interface WikipediaSearch {
  /** The search term used (the entity name, or the domain when no name was known). */
  term: string;
  /** Titles whose external links were checked. */
  checked: string[];
  /** The first of them that links to the domain. */
  match: { title: string; link: string } | null;
}

const SearchSchema = z.object({
  query: z.object({ search: z.array(z.object({ title: z.unknown() })) }),
});

const ExtlinksSchema = z.object({
  query: z.object({
    pages: z.array(z.object({
      title: z.unknown(),
      extlinks: z.array(z.object({ url: z.unknown() })).optional(),
    })),
  }),
});

/**
 * Searches Wikipedia for `name` (or the domain) and checks whether one of the top results links
 * to the domain.
 */
export async function searchWikipedia(
  ctx: LookupContext,
  endpoint: string,
  domain: string,
  name: string | null,
): Promise<Lookup<WikipediaSearch>> {
  const term = name ?? domain;
  const search = await getJson(
    ctx,
    apiUrl(endpoint, {
      action: "query",
      list: "search",
      srsearch: term,
      srnamespace: "0",
      srlimit: String(TOP_RESULTS),
      format: "json",
      formatversion: "2",
    }),
    SearchSchema,
  );
  if (!search.ok) return search;
  const titles = [
    ...new Set(
      search.value.query.search.map((hit) => safeTitle(hit.title)).filter((t) => t !== null),
    ),
  ].slice(0, TOP_RESULTS);
  if (titles.length === 0) return ok({ term, checked: [], match: null });

  // elquery "*.domain" asks MediaWiki for links to the domain and its subdomains (http and https)
  // only, so a long article's hundreds of links need no paging; sameSite below keeps the match
  // to the domain and its www host.
  const links = await getJson(
    ctx,
    apiUrl(endpoint, {
      action: "query",
      prop: "extlinks",
      titles: titles.join("|"),
      elquery: `*.${domain}`,
      ellimit: "max",
      redirects: "1",
      format: "json",
      formatversion: "2",
    }),
    ExtlinksSchema,
  );
  if (!links.ok) return links;
  const linking = new Map<string, string>();
  for (const page of links.value.query.pages) {
    const title = safeTitle(page.title);
    const link = (page.extlinks ?? []).map((l) => l.url).find((u): u is string =>
      typeof u === "string" && sameSite(u, domain)
    );
    if (title && link) linking.set(title, link);
  }
  // Keep search rank: the first result that links is the best candidate.
  const title = titles.find((t) => linking.has(t)) ?? [...linking.keys()][0];
  return ok({
    term,
    checked: titles,
    match: title ? { title, link: linking.get(title)! } : null,
  });
}

/**
 * Decides the Wikipedia check from what Wikidata said about a sitelink and what the search found.
 */
export function decideWikipedia(
  endpoint: string,
  domain: string,
  name: string | null,
  sitelink: Sitelink,
  search: Lookup<WikipediaSearch>,
): OffSiteCheck {
  if (sitelink.known && sitelink.title) {
    return {
      status: "found",
      detail: `English Wikipedia article ${
        quote(sitelink.title)
      } is linked from Wikidata item ${sitelink.itemId}.`,
      url: wikiPageUrl(endpoint, sitelink.title),
    };
  }
  if (search.ok && search.value.match) {
    const { title } = search.value.match;
    return {
      status: "found",
      detail: `English Wikipedia article ${quote(title)} links to ${domain}.`,
      url: wikiPageUrl(endpoint, title),
    };
  }
  if (!search.ok) {
    return { status: "unknown", detail: `Wikipedia search failed (${search.reason}).`, url: null };
  }
  if (!sitelink.known) {
    return {
      status: "unknown",
      detail:
        `No top Wikipedia search result links to ${domain}, but the Wikidata lookup failed, ` +
        "so an article linked from Wikidata cannot be ruled out.",
      url: null,
    };
  }
  const how = name
    ? `none of the top search results for ${quote(name)}`
    : `no entity name was known, and none of the top search results for ${domain}`;
  const wikidata = sitelink.itemId
    ? `Wikidata item ${sitelink.itemId} has no English Wikipedia sitelink`
    : "no Wikidata item to follow";
  return {
    status: "not_found",
    detail: `No English Wikipedia article found: ${wikidata}, and ${how} links to ${domain}.`,
    url: null,
  };
}
