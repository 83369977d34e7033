/** Small helpers shared by the extractors, the validator and the generator. */
import { charsOf, trimBoth } from "../../kit/text/trim.ts";

/** A JSON value, as records carry them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [k: string]: JsonValue };

const SCHEMA_IRI = /^(?:https?:\/\/)?(?:www\.)?schema\.org\//i;

/**
 * A schema.org term's short name: "https://schema.org/Product", "http://schema.org/Product" and
 * "schema:Product" all become "Product". Terms of other vocabularies are returned unchanged.
 */
export function shortTerm(term: string): string {
  const t = term.trim();
  if (SCHEMA_IRI.test(t)) return trimBoth(t.replace(SCHEMA_IRI, ""), charsOf("/"));
  if (t.startsWith("schema:")) return t.slice(7);
  return t;
}

/** Whether a (short) term is a schema.org term rather than another vocabulary's IRI. */
export function isSchemaTerm(short: string): boolean {
  return !/[:/]/.test(short);
}

/** Whether a value is a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is JsonObject {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A property value as a list (a single value becomes a one-element list; null/undefined none). */
export function asList(v: JsonValue | undefined): JsonValue[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Whether an object is only a reference: `{"@id": "..."}` and nothing else. */
export function isReference(v: unknown): v is { "@id": string } {
  if (!isObject(v) || typeof v["@id"] !== "string") return false;
  return Object.keys(v).length === 1;
}

/** The `@type` of a node object as short names. */
export function typesOf(node: JsonObject): string[] {
  const raw = node["@type"];
  return asList(raw).filter((t): t is string => typeof t === "string" && t.trim() !== "").map(
    shortTerm,
  );
}

/** Appends a value to a property, turning it into a list when it already has one. */
export function addValue(target: JsonObject, key: string, value: JsonValue): void {
  const cur = target[key];
  if (cur === undefined) target[key] = value;
  else if (Array.isArray(cur)) cur.push(value);
  else target[key] = [cur, value];
}

/** "offers[1].seller": a path step, with the index shown only for lists of several values. */
export function step(path: string, key: string, index: number, count: number): string {
  const k = count > 1 ? `${key}[${index}]` : key;
  return path ? `${path}.${k}` : k;
}
