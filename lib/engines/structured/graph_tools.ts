/**
 * Tools the generator uses on node objects: copying a page's existing values into a generated
 * node (unknown properties dropped, relative URLs made absolute, nodes lifted elsewhere turned
 * into references), and closing a graph so every `{"@id"}` reference resolves inside it.
 */
import {
  asList,
  isObject,
  isReference,
  isSchemaTerm,
  type JsonObject,
  type JsonValue,
  typesOf,
} from "./terms.ts";
import { isDataType, propertyAllowedOn, propertyInfo, typeInfo } from "./vocabulary.ts";

/** Properties whose text values are URLs (made absolute when copied). */
const URL_PROPERTIES = new Set([
  "url",
  "logo",
  "image",
  "sameAs",
  "item",
  "contentUrl",
  "thumbnailUrl",
  "embedUrl",
  "mainEntityOfPage",
  "downloadUrl",
  "installUrl",
  "hasMap",
  "menu",
  "photo",
  "license",
  "acquireLicensePage",
]);

/** How copying treats embedded nodes and references. */
export interface CopyContext {
  pageUrl: string;
  /** Embedded nodes that became graph nodes of their own: object -> its @id. */
  claimed: Map<JsonObject, string>;
  /** Old @id -> the @id of the graph node it was merged into. */
  idMap: Map<string, string>;
}

/**
 * Only schema.org types the vocabulary knows, and no data type: a node typed `URL` or `Text`
 * describes no thing (the value it stands for is a literal).
 */
export function knownTypes(types: string[]): string[] {
  return [...new Set(types)].filter((t) => isSchemaTerm(t) && typeInfo(t) && !isDataType(t));
}

/**
 * Copies `source`'s properties into `target` where `target` has none yet: properties the
 * vocabulary does not allow on `types` are dropped; values pass through {@link copyValue}.
 */
export function mergeInto(
  target: JsonObject,
  source: JsonObject,
  types: string[],
  ctx: CopyContext,
): void {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith("@") || key in target) continue;
    const info = propertyInfo(key);
    if (!info || (types.length && !propertyAllowedOn(info, types))) continue;
    const copied = copyValue(value, key, ctx, 0);
    if (copied !== undefined) target[key] = copied;
  }
}

/** A deep copy of a value fit for the generated graph (bounded depth, iterative over lists). */
export function copyValue(
  value: JsonValue,
  key: string,
  ctx: CopyContext,
  depth: number,
): JsonValue | undefined {
  if (depth > 8) return undefined;
  if (Array.isArray(value)) {
    const out = distinct(
      value.map((v) => copyValue(v, key, ctx, depth + 1)).filter((v) =>
        v !== undefined
      ) as JsonValue[],
    );
    return out.length === 0 ? undefined : out.length === 1 ? out[0] : out;
  }
  if (typeof value === "string") {
    const t = value.trim();
    if (!t) return undefined;
    if (URL_PROPERTIES.has(key) && !/^https?:\/\//i.test(t)) {
      try {
        const u = new URL(t, ctx.pageUrl);
        return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
      } catch {
        return undefined;
      }
    }
    return t;
  }
  if (!isObject(value)) return value;
  const claimedId = ctx.claimed.get(value);
  if (claimedId) return { "@id": claimedId };
  if (isReference(value)) return { "@id": ctx.idMap.get(value["@id"]) ?? value["@id"] };
  const types = knownTypes(typesOf(value));
  const out: JsonObject = {};
  if (types.length) out["@type"] = types.length === 1 ? types[0] : types;
  if (typeof value["@id"] === "string") out["@id"] = ctx.idMap.get(value["@id"]) ?? value["@id"];
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith("@")) continue;
    const info = propertyInfo(k);
    if (!info || (types.length && !propertyAllowedOn(info, types))) continue;
    const c = copyValue(v, k, ctx, depth + 1);
    if (c !== undefined) out[k] = c;
  }
  return Object.keys(out).some((k) => !k.startsWith("@")) || out["@id"] ? out : undefined;
}

/**
 * Removes every `{"@id"}` reference that names no node of the graph (embedded or top-level) and
 * returns the paths it removed them from, so they can be listed to fill in by hand.
 */
export function dropDanglingRefs(nodes: JsonObject[]): string[] {
  const ids = new Set<string>();
  const walk: JsonValue[] = [...nodes];
  while (walk.length) {
    const v = walk.pop()!;
    if (Array.isArray(v)) walk.push(...v);
    else if (isObject(v)) {
      if (typeof v["@id"] === "string" && !isReference(v)) ids.add(v["@id"]);
      for (const [k, x] of Object.entries(v)) if (!k.startsWith("@")) walk.push(x);
    }
  }
  const removed: string[] = [];
  const stack: [JsonObject, string][] = nodes.map((
    n,
  ) => [n, String(asList(n["@type"])[0] ?? "Thing")]);
  while (stack.length) {
    const [obj, path] = stack.pop()!;
    for (const [k, v] of Object.entries(obj)) {
      if (k.startsWith("@")) continue;
      const kept: JsonValue[] = [];
      for (const x of asList(v)) {
        if (isReference(x) && !ids.has(x["@id"])) {
          removed.push(`${path}.${k}`);
          continue;
        }
        kept.push(x);
        if (isObject(x)) stack.push([x, `${path}.${k}`]);
      }
      if (!kept.length) delete obj[k];
      else obj[k] = Array.isArray(v) ? kept : kept[0];
    }
  }
  return removed;
}

/** Every `{"@id"}` reference in a graph, and whether each resolves to a node of it. */
export function referencesOf(nodes: JsonValue[]): { id: string; resolved: boolean }[] {
  const ids = new Set<string>();
  const refs: string[] = [];
  const walk: JsonValue[] = [...nodes];
  while (walk.length) {
    const v = walk.pop()!;
    if (Array.isArray(v)) walk.push(...v);
    else if (isObject(v)) {
      if (isReference(v)) refs.push(v["@id"]);
      else if (typeof v["@id"] === "string") ids.add(v["@id"]);
      for (const [k, x] of Object.entries(v)) if (!k.startsWith("@")) walk.push(x);
    }
  }
  return refs.map((id) => ({ id, resolved: ids.has(id) }));
}

/** A URL-safe slug of a name, for @ids ("Jane Doe" -> "jane-doe"). */
export function slug(s: string): string {
  return s.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "")
    .slice(0, 60) || "x";
}

/** A list without repeated values (equal JSON), order kept: a graph states each fact once. */
export function distinct(list: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return list.filter((v) => {
    const key = typeof v === "string" ? `s${v}` : JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Union of text values, order kept, duplicates dropped. */
export function unionStrings(...lists: JsonValue[][]): string[] {
  const out: string[] = [];
  for (const list of lists) {
    for (const v of list) if (typeof v === "string" && v && !out.includes(v)) out.push(v);
  }
  return out;
}
