/**
 * The page's markup as candidates for the generated graph's roles (site entity, WebSite, WebPage,
 * primary entity, images, breadcrumb): every item of every format and the typed nodes embedded in
 * it, the logo an organization's markup gives, and the page furniture never copied.
 */
import { allItems, type Detected } from "../extract.ts";
import { type CopyContext, copyValue } from "../graph_tools.ts";
import type { DetectedItem } from "../record.ts";
import { asList, isObject, isReference, type JsonObject, typesOf } from "../terms.ts";
import { generatorPrimaryTypes } from "../google/registry.ts";
import { firstString } from "./values.ts";

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
