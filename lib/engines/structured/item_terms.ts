/**
 * The typing of an item's values (record.ts ValueTerm): each extractor notes, as it adds a
 * scalar value to a node, whether it is an IRI or a literal and with which datatype and language;
 * {@link TermLog.attach} then lists them with their paths. Values nobody noted are typed by their
 * JSON form (a number is an xsd:integer or xsd:double, a boolean an xsd:boolean, a string a plain
 * literal), as JSON-LD reads them.
 */
import type { DetectedItem, ValueTerm } from "./record.ts";
import { isObject, isReference, type JsonObject, type JsonValue, step } from "./terms.ts";
import { XSD_NS } from "./rdf_terms.ts";

/** What one value is, in RDF. */
export type TermInfo = Omit<ValueTerm, "path">;

/** At most this many values of one item are listed. */
const MAX_TERMS = 2000;

/** An IRI value. */
export const IRI: TermInfo = { kind: "iri" };

/** A literal, with its datatype and language when the markup gives them. */
export function literalInfo(datatype: string | null, language: string | null): TermInfo {
  const info: TermInfo = { kind: "literal" };
  if (datatype) info.datatype = datatype;
  else if (language) info.language = language;
  return info;
}

/** Notes per node and property, in the order the values were added. */
export class TermLog {
  readonly #notes = new WeakMap<JsonObject, Map<string, TermInfo[]>>();

  /** The next scalar value added to `node[key]` is `info`. */
  note(node: JsonObject, key: string, info: TermInfo): void {
    let byKey = this.#notes.get(node);
    if (!byKey) this.#notes.set(node, byKey = new Map());
    const list = byKey.get(key);
    if (list) list.push(info);
    else byKey.set(key, [info]);
  }

  /** Sets `item.terms`: every scalar value of its properties (nested nodes too), with its path. */
  attach(item: DetectedItem): void {
    const out: ValueTerm[] = [];
    const stack: [JsonObject, string][] = [[item.properties, ""]];
    let budget = 20_000;
    while (stack.length && out.length < MAX_TERMS && budget-- > 0) {
      const [node, path] = stack.pop()!;
      const notes = this.#notes.get(node);
      for (const [key, raw] of Object.entries(node)) {
        if (key.startsWith("@")) continue;
        const values: JsonValue[] = Array.isArray(raw) ? raw : [raw];
        const noted = notes?.get(key) ?? [];
        let scalar = 0;
        values.forEach((v, i) => {
          const at = step(path, key, i, values.length);
          if (isObject(v)) {
            if (!isReference(v)) stack.push([v, at]);
          } else if (v !== null && !Array.isArray(v) && out.length < MAX_TERMS) {
            out.push({ path: at, ...(noted[scalar++] ?? byForm(v)) });
          }
        });
      }
    }
    out.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    item.terms = out;
  }
}

/** A value nobody typed, read as JSON-LD reads its JSON form. */
function byForm(v: string | number | boolean): TermInfo {
  if (typeof v === "boolean") return literalInfo(`${XSD_NS}boolean`, null);
  if (typeof v === "number") {
    return literalInfo(`${XSD_NS}${Number.isInteger(v) ? "integer" : "double"}`, null);
  }
  return { kind: "literal" };
}

/**
 * The typing of a raw JSON-LD value's scalars, in the order the extractor adds them (an array's
 * members in order; a `@value` object gives its `@type` or `@language`; nested lists and nodes
 * give none). `iriProperty`: schema.org's context makes the property's strings IRIs.
 */
export function jsonLdTerms(raw: unknown, iriProperty: boolean): TermInfo[] {
  const out: TermInfo[] = [];
  for (const v of Array.isArray(raw) ? raw : [raw]) {
    if (typeof v === "string") out.push(iriProperty ? IRI : { kind: "literal" });
    else if (typeof v === "number" || typeof v === "boolean") out.push(byForm(v));
    else if (isObject(v) && "@value" in v && !("@id" in v)) {
      const inner = v["@value"];
      if (typeof inner !== "string" && typeof inner !== "number" && typeof inner !== "boolean") {
        continue;
      }
      const type = typeof v["@type"] === "string" ? expandDatatype(v["@type"]) : null;
      const language = typeof v["@language"] === "string" ? v["@language"].toLowerCase() : null;
      out.push(type || language ? literalInfo(type, language) : byForm(inner));
    }
  }
  return out;
}

/** A JSON-LD `@type` of a value: "xsd:date" and schema.org's terms ("Date") as full IRIs. */
function expandDatatype(t: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return t;
  if (t.startsWith("xsd:")) return XSD_NS + t.slice(4);
  if (!t.includes(":")) return `https://schema.org/${t}`;
  return t;
}
