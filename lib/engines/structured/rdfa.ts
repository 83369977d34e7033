/**
 * RDFa items: the statements of the RDFa 1.1 processor (rdfa/processor.ts) as the trees of
 * values that validation and generation read, the way a search engine's rich-result view shows
 * them.
 *
 * - A subject becomes an item when it has a type or a schema.org property. Subjects described
 *   only in other vocabularies (the document's Open Graph or Dublin Core metadata, an
 *   `xhv:license` link) stay triples (rdfa/triples.ts `extractRdfaTriples`): they are no
 *   schema.org data, and Google's rich-result rules never read them.
 * - A node is embedded where it is stated: a blank node under the one statement that refers to
 *   it, a node with an IRI under the element that links to it when its description is inside that
 *   element (`<div property="author" typeof="Person" resource="#jane">`). A node described
 *   elsewhere is a reference (`{"@id"}`) when it is an item of its own, else its IRI as text (and
 *   always text for a URL-valued property such as `url`). An `inlist` list is the values in order.
 * - HTML+RDFa leniency the spec's triples do not have: a bare `rel` term that resolves into
 *   schema.org but names no schema.org property ("nofollow", "stylesheet" under
 *   `vocab="https://schema.org/"`) is an HTML link type, not a property, so items leave it out.
 * - Values: an attribute's value (`content`, `datetime`) trimmed, an element's rendered text
 *   (whitespace collapsed, scripts left out), IRIs made absolute. `terms` says which values are
 *   IRIs and gives the datatype and language of the literals.
 *
 * Iterative; items, values and nesting are capped.
 */
import type { DetectedItem } from "./record.ts";
import { addValue, isSchemaTerm, type JsonObject, type JsonValue, shortTerm } from "./terms.ts";
import { propertyInfo } from "./vocabulary.ts";
import { absoluteUrl, type DomDocument, type DomElement, textOf } from "./dom.ts";
import { processRdfa } from "./rdfa/processor.ts";
import type { PendingLiteral, RdfaGraph, Resource, Statement } from "./rdfa/statement.ts";
import { literalDatatype, TEXT_NODES, type TextBudget } from "./rdfa/literal.ts";
import { RDF_NS, RDF_TYPE } from "./rdf_terms.ts";
import { IRI, literalInfo, type TermInfo, TermLog } from "./item_terms.ts";

const MAX_ITEMS = 300;
const MAX_VALUES = 100_000;
const MAX_LIST = 1000;
const MAX_DEPTH = 40;
const RDF_FIRST = `${RDF_NS}first`;
const RDF_REST = `${RDF_NS}rest`;
const RDF_NIL = `${RDF_NS}nil`;
const SCHEMA_IRI = /^https?:\/\/(www\.)?schema\.org\//i;

interface Node {
  res: Resource;
  types: string[];
  props: Statement[];
  incoming: Statement[];
  /** Document position of the first element that describes it (Infinity when none does). */
  first: number;
  el: DomElement | null;
  /** Document positions of the elements that describe it (at most a few hundred). */
  at: number[];
  /** The statement it is embedded under, or null. */
  owner: Statement | null;
  /** Other statements it is embedded under as well: links whose element describes it too. */
  alsoUnder: Set<Statement> | null;
  /** An rdf:first/rdf:rest cell of an `inlist` list. */
  list: boolean;
}

/** Extracts the page's RDFa items (`baseUrl`: the page's base URL). */
export function extractRdfa(doc: DomDocument, baseUrl: string): DetectedItem[] {
  return rdfaItems(processRdfa(doc, baseUrl));
}

/** The items of a processed page (see the module comment). */
export function rdfaItems(graph: RdfaGraph): DetectedItem[] {
  const nodes = new Map<string, Node>();
  const normal = new Map<string, string>();
  const text: TextBudget = { nodes: TEXT_NODES };
  // Statements of one element share their resource objects: a lookup by object first.
  const byObject = new WeakMap<Resource, Node>();
  const nodeOf = (r: Resource): Node => {
    const known = byObject.get(r);
    if (known) return known;
    const k = keyOf(r);
    let n = nodes.get(k);
    if (!n) {
      n = {
        res: r,
        types: [],
        props: [],
        incoming: [],
        first: Infinity,
        el: null,
        at: [],
        owner: null,
        alsoUnder: null,
        list: false,
      };
      nodes.set(k, n);
    }
    byObject.set(r, n);
    return n;
  };
  for (const st of graph.statements) {
    if (st.via === "vocab" || isLinkType(st)) continue;
    const s = nodeOf(st.s);
    const position = st.pos;
    if (s.el === null) {
      s.el = st.el;
      s.first = position;
    }
    if (s.at.length < 300 && s.at[s.at.length - 1] !== position) s.at.push(position);
    if (st.p === RDF_TYPE) {
      if (st.o.kind === "resource" && !st.o.blank && !s.types.includes(st.o.value)) {
        s.types.push(st.o.value);
      }
      continue;
    }
    s.props.push(st);
    if (st.o.kind === "resource") nodeOf(st.o).incoming.push(st);
  }

  const described = (n: Node) => n.types.length > 0 || n.props.length > 0;
  for (const n of nodes.values()) {
    n.list = n.res.blank && n.props.length > 0 &&
      n.props.every((p) => p.p === RDF_FIRST || p.p === RDF_REST);
  }
  const isList = (n: Node) => n.list;
  const relevant = (n: Node) =>
    !isList(n) && (n.types.length > 0 || n.props.some((p) => SCHEMA_IRI.test(p.p)));

  // Where each node is embedded.
  for (const n of nodes.values()) {
    if (!described(n) || isList(n)) continue;
    if (n.res.blank) {
      if (n.incoming.length === 1) n.owner = n.incoming[0];
    } else {
      // Each link whose element holds a description of the node embeds it (the same person as
      // the author of two books, described under each).
      for (const st of n.incoming) {
        if (keyOf(st.s) === keyOf(n.res)) continue;
        const span = graph.span(st.el);
        if (!span || !n.at.some((p) => span[0] <= p && p < span[1])) continue;
        if (n.owner) (n.alsoUnder ??= new Set()).add(st);
        else n.owner = st;
      }
    }
  }
  // A node is shown when its top-most owner is an item; an owner chain that loops, or ends at a
  // node that is no item (the document's Open Graph subject), sets a relevant node free.
  const shown = new Map<Node, boolean>();
  const ownerNode = (n: Node) => n.owner ? nodeOf(n.owner.s) : null;
  for (const n of nodes.values()) {
    const chain: Node[] = [];
    let cur: Node | null = n;
    while (cur && !shown.has(cur) && !chain.includes(cur) && chain.length < 500) {
      chain.push(cur);
      cur = ownerNode(cur);
    }
    if (cur && chain.includes(cur)) cur.owner = null; // a loop: its first node stands alone
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i];
      const up = ownerNode(c);
      if (up && shown.get(up)) shown.set(c, true);
      else {
        c.owner = null;
        shown.set(c, relevant(c));
      }
    }
  }
  const roots = [...nodes.values()]
    .filter((n) => described(n) && !isList(n) && !n.owner && (shown.get(n) ?? false))
    .sort((a, b) => a.first - b.first)
    .slice(0, MAX_ITEMS);
  const rootIds = new Set(roots.map((n) => keyOf(n.res)));
  // A blank node that is an item of its own and referred to gets an id to refer to it by.
  const idOf = (n: Node): string | null =>
    n.res.blank ? (n.incoming.length ? `_:${n.res.value}` : null) : normalIri(n.res.value, normal);

  const log = new TermLog();
  let budget = MAX_VALUES;
  const items: DetectedItem[] = roots.map((n, index) => ({
    index,
    source: "rdfa",
    id: idOf(n),
    types: n.types.map(shortTerm),
    properties: {},
    refs: [],
    location: `RDFa item ${index + 1} (<${n.el?.name ?? "html"}>)`,
  }));
  const jobs: [Node, JsonObject, Path | null][] = roots.map((
    n,
    i,
  ) => [n, items[i].properties, null]);
  let path: Path | null = null;
  while (jobs.length && budget > 0) {
    const [node, target, up] = jobs.pop()!;
    path = { node, up, depth: (up?.depth ?? 0) + 1 };
    for (const st of node.props) {
      if (budget-- <= 0) break;
      const key = shortTerm(st.p);
      for (const [value, info] of valuesOf(st)) {
        if (value === null) continue;
        addValue(target, key, value);
        if (info) log.note(target, key, info);
      }
    }
  }
  for (const item of items) log.attach(item);
  return items;

  /** The item values one statement gives (a list gives its members), with their typing. */
  function valuesOf(st: Statement): Typed[] {
    const o = st.o;
    if (o.kind === "literal") return [literalOf(o, text)];
    if (!o.blank && o.value === RDF_NIL) return [];
    const target = nodes.get(keyOf(o));
    if (target && isList(target)) return listMembers(st, target);
    return [resourceValue(st, o)];
  }

  function resourceValue(st: Statement, o: Resource): Typed {
    const target = nodes.get(keyOf(o))!;
    if ((target.owner === st || !!target.alsoUnder?.has(st)) && !onPath(target)) {
      const nested: JsonObject = {};
      if (target.types.length) {
        const t = target.types.map(shortTerm);
        nested["@type"] = t.length === 1 ? t[0] : t;
      }
      if (!o.blank) nested["@id"] = normalIri(o.value, normal);
      jobs.push([target, nested, path]);
      return [nested, null];
    }
    if (rootIds.has(keyOf(o)) && !urlValued(shortTerm(st.p))) {
      const id = idOf(target);
      if (id) return [{ "@id": id }, null];
    }
    return o.blank ? [null, null] : [normalIri(o.value, normal), IRI];
  }

  /** Whether a node is being filled above the current one (or nesting is too deep). */
  function onPath(n: Node): boolean {
    if (path && path.depth >= MAX_DEPTH) return true;
    for (let p = path; p; p = p.up) if (p.node === n) return true;
    return false;
  }

  /** An `inlist` list's members, in order (the list's own nodes are no items). */
  function listMembers(st: Statement, head: Node): Typed[] {
    const out: Typed[] = [];
    const seen = new Set<Node>();
    let cur: Node | undefined = head;
    while (cur && !seen.has(cur) && out.length < MAX_LIST) {
      seen.add(cur);
      const member: Statement | undefined = cur.props.find((p) => p.p === RDF_FIRST);
      const o = member?.o;
      // A member node embeds under the list (its owner); else it is referred to as from `st`.
      if (o?.kind === "literal") out.push(literalOf(o, text));
      else if (o && (o.blank || o.value !== RDF_NIL)) {
        out.push(resourceValue(nodes.get(keyOf(o))?.owner === member ? member! : st, o));
      }
      const rest: Statement | undefined = cur.props.find((p) => p.p === RDF_REST);
      cur = rest && rest.o.kind === "resource" ? nodes.get(keyOf(rest.o)) : undefined;
    }
    return out;
  }
}

/** The nodes being filled, innermost first. */
interface Path {
  node: Node;
  up: Path | null;
  depth: number;
}

/** A value and its typing (null for nodes and references). */
type Typed = [JsonValue, TermInfo | null];

/** A literal as an item value: the attribute trimmed or the rendered text, and its typing. */
function literalOf(l: PendingLiteral, budget: TextBudget): Typed {
  const value = l.lexical === null ? textOf(l.el, 5000, budget) : l.lexical.trim();
  return [value, literalInfo(literalDatatype(l, () => value), l.language)];
}

function keyOf(r: Resource): string {
  return r.blank ? `_:${r.value}` : r.value;
}

/** http(s) IRIs as URLs are written everywhere else in the record (new URL().href). */
function normalIri(v: string, seen: Map<string, string>): string {
  if (!/^https?:/i.test(v)) return v;
  let n = seen.get(v);
  if (n === undefined) seen.set(v, n = absoluteUrl(v, v) ?? v);
  return n;
}

/** A property whose values are URLs (schema.org's range is only URL): never a node reference. */
function urlValued(key: string): boolean {
  if (!isSchemaTerm(key)) return false;
  const ranges = propertyInfo(key)?.ranges;
  return !!ranges && ranges.length === 1 && ranges[0] === "URL";
}

/**
 * A `rel`/`rev` term that resolved into schema.org but is no schema.org property: an HTML link
 * type ("nofollow", "stylesheet", "noopener") under `vocab="https://schema.org/"`.
 */
function isLinkType(st: Statement): boolean {
  if (st.via !== "rel" && st.via !== "rev") return false;
  if (!SCHEMA_IRI.test(st.p)) return false;
  return propertyInfo(shortTerm(st.p)) === null;
}
