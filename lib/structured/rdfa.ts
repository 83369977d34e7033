/**
 * RDFa items, following RDFa Core 1.1's processing model as far as schema.org markup uses it:
 * `vocab`, `prefix` (over the initial context's prefixes, `dcat:` and the rest), `typeof`,
 * `property`, `resource`, `about`, and the Core attributes `rel`/`rev`.
 *
 * - An element with `typeof` and no `property`/`rel` starts a subject: a top-level item, or the
 *   object that completes a pending `rel` of an ancestor. Its IRI is `about`, else `resource`,
 *   `href` or `src` (RDFa 1.1's typed resource).
 * - `resource` or `about` without `typeof` starts a subject too (an untyped node that merges with
 *   any other node of the same IRI).
 * - `property` adds a value to the current subject: with `typeof`, a node typed so (IRI from
 *   `resource`/`href`/`src`); else `content`, then `resource`/`href`/`src`, `datetime`, the text.
 * - `rel` with `resource`/`href`/`src` links the subject to that IRI (a node when `typeof` types
 *   it); `rel` without one leaves an incomplete triple that each subject started below completes
 *   (and plain properties below fill an anonymous node, as RDFa 1.1 specifies). `rev` states the
 *   reverse link, which has no place in a tree of the subject's values, so it is read but kept
 *   only as the object's own property when the object is a node started here.
 *
 * Deliberate leniency: a plain `href`/`src` without `rel`/`property` does not start a subject
 * (RDFa 1.1 would move every property inside a link to the link's target; Google does not).
 * One iterative walk, no recursion; items and visits are capped.
 */
import type { DetectedItem } from "./record.ts";
import {
  addValue,
  isObject,
  isSchemaTerm,
  type JsonObject,
  type JsonValue,
  shortTerm,
} from "./terms.ts";
import { propertyInfo } from "./vocabulary.ts";
import {
  absoluteUrl,
  attr,
  type DomDocument,
  type DomElement,
  type DomNode,
  isElement,
  textOf,
} from "./dom.ts";

const MAX_ITEMS = 300;
const MAX_VISITS = 200_000;

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

/** A `rel` waiting for its object: the subjects started below complete it. */
interface Incomplete {
  target: JsonObject;
  rels: string[];
}

interface Ctx {
  vocab: string | null;
  prefixes: Readonly<Record<string, string>>;
  /** The node properties attach to, or null outside any subject. */
  subject: JsonObject | null;
  incomplete: Incomplete | null;
}

/** Extracts the page's RDFa items. */
export function extractRdfa(doc: DomDocument, baseUrl: string): DetectedItem[] {
  const items: DetectedItem[] = [];
  const topById = new Map<string, DetectedItem>();
  const root: Ctx = { vocab: null, prefixes: INITIAL_PREFIXES, subject: null, incomplete: null };
  const stack: [DomNode, Ctx][] = [...doc.children].reverse().map((n) => [n, root]);
  const iri = (v: string) => absoluteUrl(v, baseUrl) ?? v;

  /** A subject started on this element: completes a pending rel, or becomes an item. */
  const startSubject = (
    el: DomElement,
    ctx: Ctx,
    types: string[],
    id: string | null,
  ): JsonObject | null => {
    if (ctx.incomplete) {
      const node: JsonObject = {};
      setTypes(node, types);
      if (id) node["@id"] = id;
      for (const r of ctx.incomplete.rels) addValue(ctx.incomplete.target, r, node);
      return node;
    }
    const existing = id ? topById.get(id) : undefined;
    if (existing) {
      for (const t of types) if (!existing.types.includes(t)) existing.types.push(t);
      return existing.properties;
    }
    if (items.length >= MAX_ITEMS) return null;
    const item: DetectedItem = {
      index: items.length,
      source: "rdfa",
      id,
      types,
      properties: {},
      refs: [],
      location: `RDFa item ${items.length + 1} (<${el.name}>)`,
    };
    items.push(item);
    if (id) topById.set(id, item);
    return item.properties;
  };

  let visited = 0;
  while (stack.length && visited++ < MAX_VISITS) {
    const [domNode, parent] = stack.pop()!;
    if (!isElement(domNode)) continue;
    const el = domNode;
    const a = el.attribs;
    if (
      !("property" in a || "typeof" in a || "rel" in a || "rev" in a || "about" in a ||
        "resource" in a || "vocab" in a || "prefix" in a)
    ) {
      // No RDFa on this element (most of a page): its children see the same context.
      for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], parent]);
      continue;
    }
    let ctx = parent;
    const vocab = attr(el, "vocab");
    const prefix = attr(el, "prefix");
    if (vocab !== null || prefix) {
      ctx = {
        ...ctx,
        vocab: vocab === null ? ctx.vocab : vocab || null,
        prefixes: prefix ? { ...ctx.prefixes, ...parsePrefixes(prefix) } : ctx.prefixes,
      };
    }
    const terms = (name: string, curiesOnly = false) =>
      (attr(el, name) ?? "").split(/\s+/).filter((t) => t && (!curiesOnly || t.includes(":")))
        .map((t) => expand(t, ctx)).filter((t): t is string => t !== null).map(shortTerm);
    const properties = terms("property");
    // HTML+RDFa: next to `property`, a `rel` of plain HTML link types is not RDFa; and a bare
    // rel term under schema.org's vocab that schema.org does not define ("nofollow",
    // "stylesheet") is an HTML link type, not a property.
    const linkTerms = (name: string) =>
      terms(name, properties.length > 0).filter((t) => !isSchemaTerm(t) || !!propertyInfo(t));
    const rels = linkTerms("rel");
    const revs = linkTerms("rev");
    const typeofAttr = attr(el, "typeof");
    const types = typeofAttr === null ? null : terms("typeof");
    const about = attr(el, "about");
    const resource = attr(el, "resource");
    const link = resource ?? attr(el, "href") ?? attr(el, "src");
    const hasContent = attr(el, "content") !== null || attr(el, "datatype") !== null;

    let next: Ctx = ctx;
    if (about !== null) {
      // `about` names this element's subject; typeof types it.
      const subject = startSubject(el, ctx, types ?? [], iri(about));
      if (!subject) continue;
      if (properties.length) {
        const value = rels.length || revs.length ? literal(el) : propertyValue(el, baseUrl);
        for (const p of properties) addValue(subject, p, value);
      }
      next = { ...ctx, subject, incomplete: null };
      if (rels.length) next = linkRels(next, subject, rels, link === null ? null : iri(link));
    } else if (rels.length || revs.length) {
      const subject = ctx.subject;
      if (subject && properties.length) {
        for (const p of properties) addValue(subject, p, literal(el));
      }
      if (!subject) {
        // A link outside any subject: a typed object still starts an item of its own.
        if (types) {
          const started = startSubject(el, ctx, types, link === null ? null : iri(link));
          if (started) next = { ...ctx, subject: started, incomplete: null };
        }
      } else if (!rels.length) {
        // Only `rev`: the reverse link has no place among the subject's values.
        if (types) {
          const node: JsonObject = {};
          setTypes(node, types);
          if (link !== null) node["@id"] = iri(link);
          next = { ...ctx, subject: node, incomplete: null };
        }
      } else if (types) {
        const node: JsonObject = {};
        setTypes(node, types);
        if (link !== null) node["@id"] = iri(link);
        for (const r of rels) addValue(subject, r, node);
        next = { ...ctx, subject: node, incomplete: null };
      } else {
        next = linkRels(ctx, subject, rels, link === null ? null : iri(link));
      }
    } else if (types) {
      const id = link === null ? null : iri(link);
      if (properties.length && !hasContent && ctx.subject) {
        const node: JsonObject = {};
        setTypes(node, types);
        if (id) node["@id"] = id;
        for (const p of properties) addValue(ctx.subject, p, node);
        next = { ...ctx, subject: node, incomplete: null };
      } else {
        if (properties.length && ctx.subject) {
          for (const p of properties) addValue(ctx.subject, p, propertyValue(el, baseUrl));
        }
        const subject = startSubject(el, ctx, types, id);
        if (!subject) continue;
        next = { ...ctx, subject, incomplete: null };
      }
    } else if (resource !== null && !properties.length) {
      const subject = startSubject(el, ctx, [], iri(resource));
      if (!subject) continue;
      next = { ...ctx, subject, incomplete: null };
    } else if (properties.length && ctx.subject) {
      const value = propertyValue(el, baseUrl);
      for (const p of properties) addValue(ctx.subject, p, value);
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], next]);
  }
  for (const item of items) dropEmptyNodes(item.properties);
  return items;
}

/**
 * The context below an element with `rel`: with an object IRI, the link is stated (children
 * stay on the subject); without one, the rel waits for the subjects started below, and plain
 * properties below fill an anonymous node linked by it (dropped again if nothing fills it).
 */
function linkRels(ctx: Ctx, subject: JsonObject, rels: string[], object: string | null): Ctx {
  if (object !== null) {
    for (const r of rels) addValue(subject, r, object);
    return { ...ctx, subject, incomplete: null };
  }
  const anonymous: JsonObject = {};
  for (const r of rels) addValue(subject, r, anonymous);
  return { ...ctx, subject: anonymous, incomplete: { target: subject, rels } };
}

function setTypes(node: JsonObject, types: string[]): void {
  if (types.length) node["@type"] = types.length === 1 ? types[0] : types;
}

/** Removes the anonymous nodes of `rel`s that nothing filled (iterative). */
function dropEmptyNodes(root: JsonObject): void {
  const stack: JsonObject[] = [root];
  let budget = 100_000;
  while (stack.length && budget-- > 0) {
    const node = stack.pop()!;
    for (const [k, v] of Object.entries(node)) {
      if (Array.isArray(v)) {
        const kept = v.filter((x) => !(isObject(x) && !Object.keys(x).length));
        if (!kept.length) delete node[k];
        else node[k] = kept.length === 1 ? kept[0] : kept;
        for (const x of kept) if (isObject(x)) stack.push(x);
      } else if (isObject(v)) {
        if (!Object.keys(v).length) delete node[k];
        else stack.push(v);
      }
    }
  }
}

/** "schema: https://schema.org/ og: http://ogp.me/ns#" -> {schema: ..., og: ...}. */
function parsePrefixes(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  const parts = value.trim().split(/\s+/);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i].endsWith(":")) out[parts[i].slice(0, -1).toLowerCase()] = parts[i + 1];
  }
  return out;
}

/** A term, CURIE or IRI as a full IRI, or null when it cannot be resolved. */
function expand(term: string, ctx: Ctx): string | null {
  if (/^https?:\/\//i.test(term)) return term;
  const colon = term.indexOf(":");
  if (colon > 0) {
    const ns = ctx.prefixes[term.slice(0, colon).toLowerCase()];
    return ns ? ns + term.slice(colon + 1) : null;
  }
  return ctx.vocab ? ctx.vocab + term : null;
}

/** A property's literal: `content`, else the element's text. */
function literal(el: DomElement): JsonValue {
  return attr(el, "content") ?? textOf(el);
}

function propertyValue(el: DomElement, baseUrl: string): string {
  const content = attr(el, "content");
  if (content !== null) return content;
  if (attr(el, "datatype") !== null) return textOf(el);
  const link = attr(el, "resource") ?? attr(el, "href") ?? attr(el, "src");
  if (link !== null) return absoluteUrl(link, baseUrl) ?? link;
  if (el.name === "time") return attr(el, "datetime") ?? textOf(el);
  return textOf(el);
}
