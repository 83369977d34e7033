/**
 * RDFa 1.1's initial context (https://www.w3.org/2011/rdfa-context/rdfa-1.1, checked 2026-11-26)
 * and what the page facts need of RDFa: the prefixes an element declares (`prefix`, `xmlns:`),
 * and a head meta's `property` resolved as RDFa resolves it, then named by the key pages and
 * crawlers use for it ("og:title" for http://ogp.me/ns#title). The full RDFa processor is
 * lib/engines/structured/rdfa/processor.ts; this is the part a one-pass SAX reader can apply.
 */

/** The prefixes of RDFa 1.1's initial context (https://www.w3.org/2011/rdfa-context/rdfa-1.1). */
export const INITIAL_PREFIXES: Readonly<Record<string, string>> = {
  as: "https://www.w3.org/ns/activitystreams#",
  cc: "http://creativecommons.org/ns#",
  csvw: "http://www.w3.org/ns/csvw#",
  ctag: "http://commontag.org/ns#",
  dc: "http://purl.org/dc/terms/",
  dc11: "http://purl.org/dc/elements/1.1/",
  dcat: "http://www.w3.org/ns/dcat#",
  dcterms: "http://purl.org/dc/terms/",
  dqv: "http://www.w3.org/ns/dqv#",
  duv: "https://www.w3.org/ns/duv#",
  foaf: "http://xmlns.com/foaf/0.1/",
  gr: "http://purl.org/goodrelations/v1#",
  grddl: "http://www.w3.org/2003/g/data-view#",
  ical: "http://www.w3.org/2002/12/cal/icaltzd#",
  jsonld: "http://www.w3.org/ns/json-ld#",
  ldp: "http://www.w3.org/ns/ldp#",
  ma: "http://www.w3.org/ns/ma-ont#",
  oa: "http://www.w3.org/ns/oa#",
  odrl: "http://www.w3.org/ns/odrl/2/",
  og: "http://ogp.me/ns#",
  org: "http://www.w3.org/ns/org#",
  owl: "http://www.w3.org/2002/07/owl#",
  prov: "http://www.w3.org/ns/prov#",
  qb: "http://purl.org/linked-data/cube#",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfa: "http://www.w3.org/ns/rdfa#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  rev: "http://purl.org/stuff/rev#",
  rif: "http://www.w3.org/2007/rif#",
  rr: "http://www.w3.org/ns/r2rml#",
  schema: "http://schema.org/",
  sd: "http://www.w3.org/ns/sparql-service-description#",
  sioc: "http://rdfs.org/sioc/ns#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  skosxl: "http://www.w3.org/2008/05/skos-xl#",
  sosa: "http://www.w3.org/ns/sosa/",
  ssn: "http://www.w3.org/ns/ssn/",
  time: "http://www.w3.org/2006/time#",
  v: "http://rdf.data-vocabulary.org/#",
  vcard: "http://www.w3.org/2006/vcard/ns#",
  void: "http://rdfs.org/ns/void#",
  wdr: "http://www.w3.org/2007/05/powder#",
  wdrs: "http://www.w3.org/2007/05/powder-s#",
  xhv: "http://www.w3.org/1999/xhtml/vocab#",
  xml: "http://www.w3.org/XML/1998/namespace",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

/** The terms of RDFa 1.1's initial context (matched without regard to case). */
export const INITIAL_TERMS: Readonly<Record<string, string>> = {
  describedby: "http://www.w3.org/2007/05/powder-s#describedby",
  license: `http://www.w3.org/1999/xhtml/vocab#license`,
  role: `http://www.w3.org/1999/xhtml/vocab#role`,
};

/** The RDFa prefix mappings and vocabulary in force on an element. */
export interface RdfaScope {
  /** Prefixes declared by the element and its ancestors (lowercased), over the initial ones. */
  prefixes: Readonly<Record<string, string>>;
  vocab: string | null;
}

/** The scope of a document before any declaration. */
export const INITIAL_SCOPE: RdfaScope = { prefixes: INITIAL_PREFIXES, vocab: null };

/**
 * The prefixes an element declares with `prefix="p: IRI ..."` and `xmlns:p="IRI"` (prefix names
 * lowercased; "_" and names that are no NCName ignored), or null when it declares none.
 */
export function parsePrefixAttribute(a: Record<string, string>): Record<string, string> | null {
  let out: Record<string, string> | null = null;
  const set = (prefix: string, ns: string) => {
    const p = prefix.toLowerCase();
    if (p === "_" || !/^[a-z_][\w.-]*$/i.test(p)) return;
    (out ??= {})[p] = ns;
  };
  for (const name in a) {
    if (name.startsWith("xmlns:")) set(name.slice(6), a[name].trim());
  }
  if (a.prefix !== undefined) {
    // "prefix: IRI" pairs, as `/([^\s:]+):\s+(\S+)/g` reads them, over the white-space separated
    // words once: that expression retried every long word without a colon from each character.
    const words = a.prefix.split(/\s+/);
    for (let i = 0; i < words.length - 1; i++) {
      const word = words[i];
      if (!word.endsWith(":")) continue;
      const name = word.slice(word.lastIndexOf(":", word.length - 2) + 1, -1);
      if (!name || !words[i + 1]) continue;
      set(name, words[i + 1]);
      i++;
    }
  }
  return out;
}

/** The scope inside an element: its `vocab` and prefix declarations over the parent's. */
export function scopeOf(a: Record<string, string>, parent: RdfaScope): RdfaScope {
  const declared = parsePrefixAttribute(a);
  const vocab = a.vocab === undefined ? parent.vocab : a.vocab.trim() || null;
  if (!declared && vocab === parent.vocab) return parent;
  return { prefixes: declared ? { ...parent.prefixes, ...declared } : parent.prefixes, vocab };
}

/**
 * Namespaces whose terms pages name with a conventional key, and that key's form (lowercased, as
 * the page facts key every meta name).
 */
const KEYED_NAMESPACES: [string, (local: string) => string][] = [
  ["http://ogp.me/ns#", (l) => `og:${l.toLowerCase()}`],
  ["http://ogp.me/ns/article#", (l) => `article:${l.toLowerCase()}`],
  ["http://ogp.me/ns/book#", (l) => `book:${l.toLowerCase()}`],
  ["http://ogp.me/ns/profile#", (l) => `profile:${l.toLowerCase()}`],
  ["http://ogp.me/ns/product#", (l) => `product:${l.toLowerCase()}`],
  ["http://purl.org/dc/terms/", (l) => `dcterms.${l.toLowerCase()}`],
  ["http://purl.org/dc/elements/1.1/", (l) => `dc.${l.toLowerCase()}`],
];

/**
 * The conventional keys a `property` attribute names under RDFa: each term resolved (a CURIE
 * through the prefixes in scope, a bare term through `vocab`, an absolute IRI as written) and
 * named as pages write it ("og:title", "article:published_time", "dcterms.modified", "dc.creator").
 * `<html prefix="o: http://ogp.me/ns#"><meta property="o:title">` gives "og:title"; terms of other
 * vocabularies give nothing.
 */
export function metaKeys(property: string, scope: RdfaScope): string[] {
  const out: string[] = [];
  for (const term of property.trim().split(/\s+/)) {
    const iri = resolveTerm(term, scope);
    if (iri === null) continue;
    for (const [ns, key] of KEYED_NAMESPACES) {
      if (iri.startsWith(ns) && iri.length > ns.length) {
        const k = key(iri.slice(ns.length));
        if (!out.includes(k)) out.push(k);
      }
    }
  }
  return out;
}

function resolveTerm(term: string, scope: RdfaScope): string | null {
  if (!term) return null;
  const colon = term.indexOf(":");
  if (colon < 0) {
    return scope.vocab ? scope.vocab + term : INITIAL_TERMS[term.toLowerCase()] ?? null;
  }
  const prefix = term.slice(0, colon).toLowerCase();
  const ns = Object.hasOwn(scope.prefixes, prefix) ? scope.prefixes[prefix] : undefined;
  if (ns !== undefined) return ns + term.slice(colon + 1);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(term) ? term : null;
}
