/**
 * JSON-LD as the visibility signals need it: every node of every block, `@graph` flattened and
 * nested nodes lifted, with `@id` references resolvable.
 */
import type { JsonLdBlock } from "../html/types.ts";
import type { DetectedItem } from "./record.ts";
import { generatorPrimaryTypes } from "./google/registry.ts";
import { subtypesOf } from "./vocabulary.ts";

/** A JSON-LD node object with its types normalised to an array of short names. */
export interface JsonLdNode {
  types: string[];
  id: string | null;
  data: Record<string, unknown>;
}

const MAX_NODES = 500;

/**
 * Flattens parsed JSON-LD blocks into nodes: arrays, `@graph` and nested objects are walked
 * (iteratively, so hostile nesting cannot overflow the stack); types lose any schema.org prefix.
 */
export function flattenJsonLd(blocks: JsonLdBlock[]): JsonLdNode[] {
  const nodes: JsonLdNode[] = [];
  const stack: unknown[] = blocks.filter((b) => b.error === null).map((b) => b.value).reverse();
  let visited = 0;
  while (stack.length && nodes.length < MAX_NODES && visited++ < 20_000) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    if (!v || typeof v !== "object") continue;
    const obj = v as Record<string, unknown>;
    const rawTypes = obj["@type"];
    const types = (Array.isArray(rawTypes) ? rawTypes : rawTypes ? [rawTypes] : [])
      .filter((t): t is string => typeof t === "string")
      .map((t) => t.replace(/^(https?:\/\/)?schema\.org\//, "").replace(/^schema:/, ""));
    if (types.length) {
      nodes.push({ types, id: typeof obj["@id"] === "string" ? obj["@id"] : null, data: obj });
    }
    for (const [key, child] of Object.entries(obj)) {
      if (key === "@context") continue;
      if (child && typeof child === "object") stack.push(child);
    }
  }
  return nodes;
}

/** Nodes of any of the given types. */
export function nodesOfType(nodes: JsonLdNode[], types: readonly string[]): JsonLdNode[] {
  return nodes.filter((n) => n.types.some((t) => types.includes(t)));
}

/** A property's value as a list of strings (strings, `{@id}`/`{url}` objects, arrays of them). */
export function stringValues(value: unknown): string[] {
  const out: string[] = [];
  for (const v of Array.isArray(value) ? value : [value]) {
    if (typeof v === "string" && v.trim()) out.push(v.trim());
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      const s = o.url ?? o["@id"] ?? o.name ?? o.contentUrl;
      if (typeof s === "string" && s.trim()) out.push(s.trim());
    }
  }
  return out;
}

/** schema.org types that are an Organization (the common ones; LocalBusiness subtypes included). */
export const ORGANIZATION_TYPES = [
  "Organization",
  "Corporation",
  "LocalBusiness",
  "OnlineBusiness",
  "OnlineStore",
  "NGO",
  "NewsMediaOrganization",
  "EducationalOrganization",
  "GovernmentOrganization",
  "MedicalOrganization",
  "SportsOrganization",
  "PerformingGroup",
  "Airline",
  "Store",
  "Restaurant",
  "CafeOrCoffeeShop",
  "Bakery",
  "BarOrPub",
  "FoodEstablishment",
  "ProfessionalService",
  "LegalService",
  "Attorney",
  "Dentist",
  "Physician",
  "MedicalBusiness",
  "HealthAndBeautyBusiness",
  "HomeAndConstructionBusiness",
  "AutomotiveBusiness",
  "FinancialService",
  "RealEstateAgent",
  "TravelAgency",
  "LodgingBusiness",
  "Hotel",
  "SportsActivityLocation",
  "EntertainmentBusiness",
  "ClothingStore",
  "ElectronicsStore",
  "BookStore",
  "GroceryStore",
] as const;

/**
 * Content types a page may be about that no Google feature module names (Google's rich results
 * for HowTo and Book actions are retired; Blog and Service have none), yet say what a page is.
 */
const OTHER_MAIN_TYPES = ["Blog", "Book", "HowTo", "Service"];

/**
 * Types that describe the page itself or its main content: WebPage and its subtypes, the types
 * the Google feature modules let the generator make a page's primary entity (with their
 * subtypes), and {@link OTHER_MAIN_TYPES}.
 */
export const PAGE_TYPES: readonly string[] = [
  ...new Set([
    ...subtypesOf("WebPage"),
    ...generatorPrimaryTypes().flatMap(subtypesOf),
    ...OTHER_MAIN_TYPES,
  ]),
];

/**
 * Nodes of structured-data items of any format (the schema service's extraction of JSON-LD,
 * microdata and RDFa), in the same shape as {@link flattenJsonLd}'s, nested items lifted.
 */
export function itemsToNodes(items: DetectedItem[]): JsonLdNode[] {
  const blocks: JsonLdBlock[] = items.map((item) => ({
    value: {
      ...item.properties,
      "@type": item.types,
      ...(item.id ? { "@id": item.id } : {}),
    },
    error: null,
    length: 0,
  }));
  return flattenJsonLd(blocks);
}

/**
 * The people (or organisations) an `author`-like value names: a string, a node's `name`, or a
 * list of them; each is one name (a list of three authors is three people).
 */
export function personNames(value: unknown, byId?: Map<string, JsonLdNode>): string[] {
  const out: string[] = [];
  for (let v of Array.isArray(value) ? value : [value]) {
    // A reference ({"@id": ...}, as Yoast-style graphs write authors) names the node it points to.
    if (v && typeof v === "object" && byId) {
      const o = v as Record<string, unknown>;
      if (o.name === undefined && typeof o["@id"] === "string") v = byId.get(o["@id"])?.data ?? v;
    }
    if (typeof v === "string") {
      const t = v.trim();
      // A bare URL (an @id reference or profile link) is not a name.
      if (t && !/^(https?:)?\/\//i.test(t)) out.push(t);
    } else if (v && typeof v === "object") {
      const name = (v as Record<string, unknown>).name;
      for (const n of Array.isArray(name) ? name : [name]) {
        if (typeof n === "string" && n.trim()) out.push(n.trim());
        else if (
          n && typeof n === "object" && typeof (n as Record<string, unknown>)["@value"] === "string"
        ) {
          out.push(String((n as Record<string, unknown>)["@value"]).trim());
        }
      }
    }
  }
  return out;
}
