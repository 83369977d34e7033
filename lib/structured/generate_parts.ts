/**
 * The pieces generate.ts builds the graph from: the page's markup as candidates for the graph's
 * roles, the page's identity, the Article and Product nodes made from the page's facts, the
 * repaired breadcrumb trail, and the small value helpers (absolute URLs, stable @ids, names).
 */
import type { Article, Offer, Person, Product } from "schema-dts";
import { allItems, type Detected } from "./extract.ts";
import { type CopyContext, copyValue, slug } from "./graph_tools.ts";
import type { DetectedItem, Facts, Generated } from "./record.ts";
import { generatorPrimaryTypes } from "./google/registry.ts";
import {
  asList,
  isObject,
  isReference,
  type JsonObject,
  type JsonValue,
  typesOf,
} from "./terms.ts";

/** A schema-dts node type without its string (reference) form. */
export type Obj<T> = Exclude<T, string>;

/** A candidate from the page's markup for a role in the graph. */
export interface Candidate {
  data: JsonObject;
  types: string[];
  id: string | null;
  item: DetectedItem;
  embedded: boolean;
  parentProperty: string | null;
}

/** The types the page's primary entity may have: those the Google feature modules name. */
export const PRIMARY_TYPES = generatorPrimaryTypes();

/** The URL the page is known by: its canonical when that is on the same origin, else its URL. */
export function pageIdentity(pageUrl: string, canonical: string | null): string {
  const u = new URL(pageUrl);
  u.hash = "";
  if (canonical) {
    try {
      const c = new URL(canonical);
      c.hash = "";
      if (c.origin === u.origin) return c.href;
    } catch { /* not a URL: keep the page's */ }
  }
  return u.href;
}

/** Items and their embedded typed nodes (three levels down), in document order. */
export function collectCandidates(d: Detected): Candidate[] {
  const out: Candidate[] = [];
  for (const item of allItems(d)) {
    out.push({
      data: item.properties,
      types: item.types,
      id: item.id,
      item,
      embedded: false,
      parentProperty: null,
    });
    const stack: [JsonObject, number][] = [[item.properties, 0]];
    while (stack.length) {
      const [obj, depth] = stack.pop()!;
      if (depth >= 3) continue;
      for (const [k, v] of Object.entries(obj)) {
        if (k.startsWith("@")) continue;
        for (const x of asList(v)) {
          if (!isObject(x) || isReference(x)) continue;
          const types = typesOf(x);
          if (types.length) {
            out.push({
              data: x,
              types,
              id: typeof x["@id"] === "string" ? x["@id"] : null,
              item,
              embedded: true,
              parentProperty: k,
            });
          }
          stack.push([x, depth + 1]);
        }
      }
    }
  }
  return out;
}

export function articleNode(
  facts: Facts,
  siteId: string | null,
  imageId: string | null,
  home: string,
  graph: JsonObject[],
  nodes: Generated["nodes"],
  hasAuthor = false,
): Obj<Article> | null {
  const a = facts.article;
  if (!a) return { "@type": "Article", publisher: siteId ? { "@id": siteId } : undefined };
  let authorId: string | null = null;
  if (a.author && !hasAuthor) {
    authorId = `${home}#/schema/person/${slug(a.author)}`;
    const person: Obj<Person> = {
      "@type": "Person",
      "@id": authorId,
      name: a.author,
      url: a.authorUrl ?? undefined,
    };
    graph.push(toJson(person));
    nodes.push({ id: authorId, type: "Person", origin: "new" });
  }
  return {
    "@type": "Article",
    headline: a.headline ?? undefined,
    datePublished: a.datePublished ?? undefined,
    dateModified: a.dateModified ?? undefined,
    author: authorId ? { "@id": authorId } : undefined,
    publisher: siteId ? { "@id": siteId } : undefined,
    image: imageId ? { "@id": imageId } : undefined,
    inLanguage: facts.lang ?? undefined,
  };
}

/** A Product with its Offer, or null when the page lacks a price and currency for it. */
export function productNode(
  facts: Facts,
  page: string,
  imageId: string | null,
): Obj<Product> | null {
  const p = facts.product;
  if (!p?.price || !p.currency) return null;
  const offer: Offer = {
    "@type": "Offer",
    price: p.price,
    priceCurrency: p.currency,
    availability: (p.availability ?? undefined) as Offer["availability"],
    url: page,
  };
  return {
    "@type": "Product",
    name: p.name ?? undefined,
    description: facts.description ?? undefined,
    image: imageId ? { "@id": imageId } : undefined,
    sku: p.sku ?? undefined,
    brand: p.brand ? { "@type": "Brand", name: p.brand } : undefined,
    offers: offer,
  };
}

/** The logo URL the existing organization markup gives, if any. */
export function logoOf(list: Candidate[], ctx: CopyContext): string | null {
  for (const c of list) {
    for (const v of asList(c.data.logo)) {
      const copied = copyValue(v, "logo", ctx, 0);
      if (typeof copied === "string") return copied;
      if (isObject(copied)) {
        const url = firstString(copied.url) ?? firstString(copied.contentUrl);
        if (url) return url;
      }
    }
  }
  return null;
}

/**
 * A page's BreadcrumbList made whole from what the page states: each entry's `item` as its URL
 * (an entry written as {"@id", "name"} or referring to such a node keeps both), its name from
 * the entry, its item or the visible trail (matched by URL), positions 1..n in document order;
 * entries without a name, and entries but the last without a URL, are dropped.
 */
export function repairTrail(
  data: JsonObject,
  detected: Detected,
  visible: Facts["breadcrumbs"],
  page: string,
): JsonObject {
  const byId = new Map(allItems(detected).filter((i) => i.id).map((i) => [i.id!, i]));
  const nodeOf = (v: JsonValue | undefined): JsonObject | null =>
    isReference(v)
      ? { ...(byId.get(v["@id"])?.properties ?? {}), "@id": v["@id"] }
      : isObject(v)
      ? v
      : null;
  const entries = asList(data.itemListElement).map(nodeOf).filter((e): e is JsonObject => !!e);
  const ordered = entries.map((e, i) => ({ e, i, pos: Number(asList(e.position)[0]) }))
    .sort((a, b) =>
      (Number.isFinite(a.pos) ? a.pos : a.i + 1) - (Number.isFinite(b.pos) ? b.pos : b.i + 1) ||
      a.i - b.i
    );
  const out: JsonObject[] = [];
  for (const { e } of ordered) {
    const raw = asList(e.item)[0];
    const item = typeof raw === "string" ? null : nodeOf(raw);
    const url = absolute(
      typeof raw === "string" ? raw : (item?.["@id"] ?? asList(item?.url)[0] ?? null) as JsonValue,
      page,
    );
    const name = firstString(e.name) ?? (item ? firstString(item.name) : null) ??
      visible.find((b) => url && b.url === url)?.name ?? null;
    if (!name) continue; // Google requires every entry's name; one the page does not state is dropped.
    const entry: JsonObject = { "@type": "ListItem", position: out.length + 1 };
    if (name) entry.name = name;
    if (url) entry.item = url;
    out.push(entry);
  }
  // Only the last entry may go without a URL (Google's rule): others without one are dropped.
  const linked = out.filter((e, i) => e.item || i === out.length - 1)
    .map((e, i) => ({ ...e, position: i + 1 }));
  const copy: JsonObject = { ...data };
  if (linked.length) copy.itemListElement = linked;
  else delete copy.itemListElement;
  return copy;
}

/** Page furniture schema.org can describe but that is no content of the page's own. */
export const NOISE_TYPES = new Set([
  "SiteNavigationElement",
  "WPHeader",
  "WPFooter",
  "WPSideBar",
  "WPAdBlock",
  "Comment",
  "UserComments",
]);

/**
 * Whether the page is a list of questions and answers, not an article or post that asks
 * questions in its headings: no article facts or og:type article, at least two pairs, and every
 * answer an answer (some text, not itself a question).
 */
export function isFaqPage(facts: Facts): boolean {
  if (facts.article || /article|blog|post/i.test(facts.ogType ?? "")) return false;
  if (facts.faq.length < 2) return false;
  return facts.faq.every((qa) => /\S+\s+\S+/.test(qa.answer) && !/[?\uff1f]\s*$/.test(qa.answer));
}

/** A URL value resolved against the page, or null. */
export function absolute(v: JsonValue, base: string): string | null {
  if (typeof v !== "string") return null;
  try {
    return new URL(v.trim(), base).href;
  } catch {
    return null;
  }
}

/** An existing @id worth keeping: absolute http(s), not a blank node. */
export function stableId(id: string | null | undefined): string | null {
  return id && /^https?:\/\//i.test(id) ? id : null;
}

/** A schema-dts typed node as plain JSON (undefined properties dropped). */
export function toJson(node: object): JsonObject {
  return JSON.parse(JSON.stringify(node));
}

/** The first non-blank string of a value, trimmed, or null. */
export function firstString(v: JsonValue | undefined): string | null {
  const s = asList(v).find((x) => typeof x === "string" && x.trim());
  return typeof s === "string" ? s.trim() : null;
}

/** A name reduced to its letters and digits, lower-cased (for matching names). */
export function nameKey(s: string | null): string {
  return (s ?? "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}
