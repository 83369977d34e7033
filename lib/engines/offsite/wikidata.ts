/**
 * Wikidata presence: is there an item for this site's entity?
 *
 * Two ways in, strongest first:
 * 1. An item whose official website (P856) is the domain, found with CirrusSearch's
 *    `haswbstatement` over the usual spellings of the URL.
 * 2. Items whose label matches the entity name, accepted only when one of their P856 values is on
 *    the same host: a name alone is too ambiguous (many "Acme"s) to claim presence.
 *
 * The matched item's English Wikipedia sitelink is handed to the Wikipedia check.
 * @module
 */
import { z } from "zod";
import type { OffSiteCheck } from "./types.ts";
import { failed, getJson, type Lookup, type LookupContext, ok } from "./lookup.ts";
import {
  apiUrl,
  QID_PATTERN,
  quote,
  safeTitle,
  sameSite,
  websiteVariants,
  wikiPageUrl,
} from "./site.ts";

/** What the Wikipedia check may learn from Wikidata about an enwiki article. */
export type Sitelink =
  /** Wikidata answered: `title` is the matched item's enwiki article, or null (no item / no link). */
  | { known: true; title: string | null; itemId: string | null }
  /** Wikidata could not be asked (or not fully), so an article cannot be ruled out. */
  | { known: false };

/** The Wikidata check's result plus what it learned for the Wikipedia check. */
export interface WikidataOutcome {
  check: OffSiteCheck;
  sitelink: Sitelink;
}

/** Candidates read per name search: the first few labels are where the entity would be. */
const NAME_CANDIDATES = 5;

const SearchSchema = z.object({
  query: z.object({ search: z.array(z.object({ title: z.unknown() })) }),
});

const EntitySearchSchema = z.object({
  search: z.array(z.object({ id: z.unknown() })),
});

// The Wikibase API serialises an empty map as [] (PHP arrays); read both as a map.
const map = <T extends z.ZodType>(value: T) =>
  z.preprocess(
    (v) => (Array.isArray(v) && v.length === 0 ? {} : v),
    z.record(z.string(), value),
  );

const EntitiesSchema = z.object({
  entities: map(z.object({
    /** Present (as "") when the id names no item, e.g. a deleted one. */
    missing: z.unknown().optional(),
    claims: map(z.array(z.unknown())).optional(),
    sitelinks: map(z.unknown()).optional(),
  })),
});

const StatementSchema = z.object({
  mainsnak: z.object({ datavalue: z.object({ value: z.string() }) }),
});

const SitelinkSchema = z.object({ title: z.string() });

/** What we read from one item. */
interface Item {
  id: string;
  websites: string[];
  enwiki: string | null;
}

/**
 * Looks the domain (and, failing that, the entity name) up on Wikidata.
 *
 * Returns "found" with the item URL when an item's official website is the domain, "not_found"
 * when every lookup succeeded without such an item, and "unknown" when a needed lookup failed.
 */
export async function lookupWikidata(
  ctx: LookupContext,
  endpoint: string,
  domain: string,
  name: string | null,
): Promise<WikidataOutcome> {
  const problems: string[] = [];

  const byWebsite = await searchByWebsite(ctx, endpoint, domain);
  if (byWebsite.ok && byWebsite.value.length > 0) {
    const ids = byWebsite.value;
    const items = await getItems(ctx, endpoint, ids);
    const detail = (id: string) =>
      `Wikidata item ${id} lists ${domain} as its official website (P856).`;
    if (!items.ok) {
      // The search index is Wikidata's own statement that the item has this website; only the
      // item itself could not be read (so its Wikipedia article is not known).
      return {
        check: { status: "found", detail: detail(ids[0]), url: wikiPageUrl(endpoint, ids[0]) },
        sitelink: { known: false },
      };
    }
    // The item as it is now must still state the website: the search index lags behind edits,
    // and an item that was deleted or whose website changed is no evidence.
    const confirmed = items.value.filter((i) => i.websites.some((w) => sameSite(w, domain)));
    const best = confirmed.find((i) => i.enwiki) ?? confirmed[0];
    if (best) {
      return {
        check: { status: "found", detail: detail(best.id), url: wikiPageUrl(endpoint, best.id) },
        sitelink: { known: true, title: best.enwiki, itemId: best.id },
      };
    }
    problems.push(
      `the search index lists ${ids.join(", ")} for this website but the item${
        ids.length === 1 ? " does" : "s do"
      } not state it now`,
    );
  }
  if (!byWebsite.ok) problems.push(`search by official website failed (${byWebsite.reason})`);

  let nameNote = "no entity name was known to search by";
  if (name) {
    const byName = await searchByName(ctx, endpoint, name);
    if (!byName.ok) {
      problems.push(`search by name failed (${byName.reason})`);
    } else if (byName.value.length === 0) {
      nameNote = `no item is labelled ${quote(name)}`;
    } else {
      const items = await getItems(ctx, endpoint, byName.value);
      if (!items.ok) {
        problems.push(`reading the items named ${quote(name)} failed (${items.reason})`);
      } else {
        const match = items.value.find((i) => i.websites.some((w) => sameSite(w, domain)));
        if (match) {
          return {
            check: {
              status: "found",
              detail: `Wikidata item ${match.id} is named ${
                quote(name)
              } and its official website (P856) is on ${domain}.`,
              url: wikiPageUrl(endpoint, match.id),
            },
            sitelink: { known: true, title: match.enwiki, itemId: match.id },
          };
        }
        const n = items.value.length;
        nameNote = `${n} item${n === 1 ? "" : "s"} labelled ${quote(name)} ${
          n === 1 ? "has" : "have"
        } a different or no official website`;
      }
    }
  }

  if (problems.length > 0) {
    // Something we needed could not be asked: absence is not established.
    return {
      check: {
        status: "unknown",
        detail: `Wikidata lookup incomplete: ${problems.join("; ")}.`,
        url: null,
      },
      sitelink: { known: false },
    };
  }
  return {
    check: {
      status: "not_found",
      detail: `No Wikidata item lists ${domain} as its official website (P856); ${nameNote}.`,
      url: null,
    },
    sitelink: { known: true, title: null, itemId: null },
  };
}

/** Item ids whose P856 is one of the domain's URL spellings, in search rank order. */
async function searchByWebsite(
  ctx: LookupContext,
  endpoint: string,
  domain: string,
): Promise<Lookup<string[]>> {
  const statements = websiteVariants(domain).map((u) => `P856=${u}`).join("|");
  const url = apiUrl(endpoint, {
    action: "query",
    list: "search",
    srsearch: `haswbstatement:"${statements}"`,
    srnamespace: "0",
    srlimit: String(NAME_CANDIDATES),
    format: "json",
  });
  const result = await getJson(ctx, url, SearchSchema);
  if (!result.ok) return result;
  return ok(qids(result.value.query.search.map((hit) => hit.title)));
}

/** Item ids whose label or alias matches `name`, in Wikidata's rank order. */
async function searchByName(
  ctx: LookupContext,
  endpoint: string,
  name: string,
): Promise<Lookup<string[]>> {
  const url = apiUrl(endpoint, {
    action: "wbsearchentities",
    search: name,
    language: "en",
    type: "item",
    limit: String(NAME_CANDIDATES),
    format: "json",
  });
  const result = await getJson(ctx, url, EntitySearchSchema);
  if (!result.ok) return result;
  return ok(qids(result.value.search.map((hit) => hit.id)));
}

/** Reads the official websites and enwiki sitelink of `ids`, keeping their order. */
async function getItems(
  ctx: LookupContext,
  endpoint: string,
  ids: string[],
): Promise<Lookup<Item[]>> {
  const url = apiUrl(endpoint, {
    action: "wbgetentities",
    ids: ids.join("|"),
    props: "claims|sitelinks",
    format: "json",
  });
  const result = await getJson(ctx, url, EntitiesSchema);
  if (!result.ok) return result;
  const items: Item[] = [];
  let answered = 0;
  for (const id of ids) {
    // Object.hasOwn: the keys come from a stranger's JSON ("__proto__" must not resolve).
    const entities = result.value.entities;
    if (!Object.hasOwn(entities, id)) continue;
    answered++;
    const entity = entities[id];
    // An answered id that names no item (deleted, merged away) is an item we know is not there.
    if (entity.missing !== undefined) continue;
    const websites = (entity.claims?.P856 ?? []).flatMap((statement) => {
      const parsed = StatementSchema.safeParse(statement);
      return parsed.success ? [parsed.data.mainsnak.datavalue.value] : [];
    });
    const link = SitelinkSchema.safeParse(entity.sitelinks?.enwiki);
    items.push({ id, websites, enwiki: link.success ? safeTitle(link.data.title) : null });
  }
  if (answered === 0 && ids.length > 0) return failed("items missing from the response");
  return ok(items);
}

/** Keeps the valid, distinct Q-ids of `values`; nothing else may reach a URL. */
function qids(values: unknown[]): string[] {
  const ids = values.filter((v): v is string => typeof v === "string" && QID_PATTERN.test(v));
  return [...new Set(ids)].slice(0, NAME_CANDIDATES);
}
