/**
 * An RDFa 1.1 processor for HTML: the sequence of RDFa Core 1.1 section 7.5
 * (https://www.w3.org/TR/rdfa-core/#s_sequence) with the rules HTML+RDFa 1.1 adds
 * (https://www.w3.org/TR/html-rdfa/#extensions-to-rdfa-core-1-1), both checked 2026-11-26, run
 * over our DOM (lib/structured/dom.ts). It yields every statement the page makes, each with the
 * element that made it, so the item builder (rdfa.ts) can say where an item is and which HTML
 * link types are not properties.
 *
 * What it covers: the document as the subject (`about=""`, the root element, `head`/`body`
 * standing for their parent object), `vocab`, `prefix` and `xmlns:` mappings over the initial
 * context's prefixes and terms, safe CURIEs (`[ex:a]`, `[_:b]`), blank-node CURIEs, `typeof`,
 * `property`, `rel`/`rev` with hanging rels completed by the subjects below, `resource`, `href`,
 * `src`, `content`, `datatype` (typed, plain, XMLLiteral), `lang`/`xml:lang`, `inlist`, `<time>`
 * and `@datetime` typed by their lexical form, and property copying (`rdfa:copy` of an
 * `rdfa:Pattern`). What it leaves out, and why: docs/schema.md "RDFa".
 *
 * Iterative (an explicit stack, never recursion); elements, statements and literal lengths are
 * capped, so a hostile page costs a bounded amount of work.
 */
import {
  absoluteUrl,
  baseUrlOf,
  type DomDocument,
  type DomElement,
  type DomNode,
  isElement,
  parseDom,
} from "./dom.ts";
import {
  datetimeDatatype,
  literal,
  RDF_NS,
  RDF_TYPE,
  type Term,
  type Triple,
} from "./rdf_terms.ts";

const RDFA_NS = "http://www.w3.org/ns/rdfa#";
const XHV_NS = "http://www.w3.org/1999/xhtml/vocab#";
const XML_LITERAL = `${RDF_NS}XMLLiteral`;
const RDF_HTML = `${RDF_NS}HTML`;

/** At most this many elements are processed (the rest of a larger page is not read). */
const MAX_ELEMENTS = 200_000;
/** Element positions are below this (MAX_ELEMENTS), so a span packs into one number. */
const SPAN = 262_144;
/** At most this many statements are kept. */
const MAX_STATEMENTS = 50_000;
/** A literal read from an element's text is cut at this many characters. */
const MAX_LITERAL = 65_536;

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
const INITIAL_TERMS: Readonly<Record<string, string>> = {
  describedby: "http://www.w3.org/2007/05/powder-s#describedby",
  license: `${XHV_NS}license`,
  role: `${XHV_NS}role`,
};

/** Attributes that make an element more than a pass-through for RDFa. */
const RDFA_ATTRS = new Set([
  "about",
  "content",
  "datatype",
  "datetime",
  "href",
  "inlist",
  "prefix",
  "property",
  "rel",
  "resource",
  "rev",
  "src",
  "typeof",
  "vocab",
]);

/** A subject or object: an IRI or a blank node (its label). */
export interface Resource {
  kind: "resource";
  blank: boolean;
  value: string;
}

/**
 * A literal as the processor leaves it: the attribute value it came from, or the element whose
 * text (or, for an XMLLiteral, markup) it is, read only when someone asks (the items read the
 * rendered text, the triples the exact text content).
 */
export interface PendingLiteral {
  kind: "literal";
  el: DomElement;
  /** `content` or `datetime`, or null: the element's content. */
  lexical: string | null;
  /** An rdf:XMLLiteral or rdf:HTML: the element's markup. */
  markup: boolean;
  /** The datatype `datatype` names, or null. */
  datatype: string | null;
  /** `<time>` / `@datetime`: the datatype follows the value's lexical form. */
  time: boolean;
  language: string | null;
}

/** Which attribute stated a statement. */
export type Via = "typeof" | "property" | "rel" | "rev" | "list" | "vocab" | "copy";

/** One statement with where it came from. */
export interface Statement {
  s: Resource;
  p: string;
  o: Resource | PendingLiteral;
  /** The element whose attributes made it (for a completed hanging rel: the completing one). */
  el: DomElement;
  via: Via;
}

/** What {@link processRdfa} returns. */
export interface RdfaGraph {
  statements: Statement[];
  /** The base IRI: the document's own subject. */
  base: string;
  /** Document-order position of a processed element: [start, end) over its subtree. */
  span(el: DomElement): [number, number] | null;
}

interface Incomplete {
  p: string;
  dir: "forward" | "reverse" | "none";
  /** The list a "none" (inlist) triple adds its object to. */
  list: ListItem[] | null;
}

type ListItem = Resource | PendingLiteral;

/**
 * A list mapping: the lists an element's subject collects (`inlist`). Step 8 starts a new one
 * for a new subject that differs from the parent object; whether it differs is only asked when
 * a list is first used (comparing would resolve every link's IRI, and lists are rare).
 */
class ListMapping {
  lists: Map<string, ListItem[]> | null = null;
  constructor(
    readonly subject: Resource,
    private readonly parentObject: Resource | null,
    private readonly parent: ListMapping | null,
  ) {}

  /** The mapping lists really go to: a subject equal to the parent object shares its mapping. */
  owner(): ListMapping {
    const shares = (m: ListMapping) =>
      !!m.parent && !!m.parentObject && same(m.subject, m.parentObject);
    if (!shares(this)) return this;
    let m = this.parent!;
    while (shares(m)) m = m.parent!;
    return m;
  }

  list(p: string): ListItem[] {
    const m = this.owner();
    m.lists ??= new Map();
    let l = m.lists.get(p);
    if (!l) m.lists.set(p, l = []);
    return l;
  }
}

/** An IRI from `href`/`src`, resolved only when a statement uses it (most links never are). */
class LinkIri implements Resource {
  readonly kind = "resource";
  readonly blank = false;
  #value: string | undefined;
  constructor(private readonly raw: string, private readonly base: string) {}
  /** The absolute IRI, or "" when the attribute holds none (statements with it are dropped). */
  get value(): string {
    return this.#value ??= resolveIri(this.raw, this.base) ?? "";
  }
}

/** What resolves terms and CURIEs on an element. */
interface Scope {
  prefixes: Readonly<Record<string, string>>;
  vocab: string | null;
}

interface Ctx extends Scope {
  parentSubject: Resource;
  parentObject: Resource;
  incomplete: Incomplete[];
  list: ListMapping;
  language: string | null;
}

/** Runs the RDFa 1.1 processor over a parsed page whose base IRI is `base`. */
export function processRdfa(doc: DomDocument, pageBase: string): RdfaGraph {
  // The document's IRI is its base without a fragment.
  const base = pageBase.replace(/#.*$/, "");
  const statements: Statement[] = [];
  // [start, end) of each processed element, as start * SPAN + end (no tuple per element).
  const spans = new Map<DomElement, number>();
  const baseRes: Resource = { kind: "resource", blank: false, value: base };
  let blanks = 0;
  const newBlank = (): Resource => ({ kind: "resource", blank: true, value: `b${blanks++}` });
  const named = new Map<string, Resource>();
  const userBlank = (label: string): Resource => {
    let r = named.get(label);
    if (!r) named.set(label, r = { kind: "resource", blank: true, value: `u_${label}` });
    return r;
  };
  /** `href`, else `src` (IRIs only), resolved lazily. */
  const linkOf = (a: Record<string, string>): Resource | null => {
    const raw = a.href ?? a.src;
    return raw === undefined ? null : new LinkIri(raw.trim(), base);
  };
  const iriCache = new Map<string, Resource | null>();
  /** An IRI attribute (`href`, `src`, a CURIE's expansion) resolved against the base. */
  const iri = (raw: string): Resource | null => {
    const cached = iriCache.get(raw);
    if (cached !== undefined) return cached;
    const value = resolveIri(raw, base);
    const r: Resource | null = value === null ? null : { kind: "resource", blank: false, value };
    if (iriCache.size < 10_000) iriCache.set(raw, r);
    return r;
  };
  /** `about` / `resource`: a safe CURIE, a CURIE (blank nodes too) or an IRI; null = ignored. */
  const resource = (raw: string | undefined, ctx: Scope): Resource | null => {
    if (raw === undefined) return null;
    const v = raw.trim();
    if (v.startsWith("[") && v.endsWith("]")) {
      const curie = v.slice(1, -1).trim();
      if (curie.startsWith("_:")) return userBlank(curie.slice(2));
      const expanded = expandCurie(curie, ctx.prefixes);
      return expanded === null ? null : iri(expanded);
    }
    if (v.startsWith("_:")) return userBlank(v.slice(2));
    const colon = v.indexOf(":");
    if (colon >= 0) {
      const expanded = expandCurie(v, ctx.prefixes);
      if (expanded !== null) return iri(expanded);
    }
    return iri(v);
  };
  const emit = (s: Resource, p: string, o: Resource | PendingLiteral, el: DomElement, via: Via) => {
    if (statements.length < MAX_STATEMENTS) statements.push({ s, p, o, el, via });
  };

  const first = doc.children.find(isElement);
  const root: Ctx = {
    parentSubject: baseRes,
    parentObject: baseRes,
    prefixes: INITIAL_PREFIXES,
    incomplete: [],
    list: new ListMapping(baseRes, null, null),
    language: null,
    vocab: null,
  };
  type Frame = [node: DomNode, ctx: Ctx] | [
    exit: DomElement,
    own: ListMapping | null,
    start: number,
  ];
  const stack: Frame[] = [];
  for (let i = doc.children.length - 1; i >= 0; i--) stack.push([doc.children[i], root]);
  let position = 0;
  let elements = 0;

  while (stack.length) {
    const frame = stack.pop()!;
    if (frame.length === 3) {
      const [el, own, start] = frame;
      spans.set(el, start * SPAN + position);
      if (own) emitLists(own, el);
      continue;
    }
    const [node, ctx] = frame;
    if (!isElement(node)) continue;
    if (++elements > MAX_ELEMENTS) break;
    const el = node;
    const a = el.attribs;
    position++;
    const isRoot = el === first && el.name === "html";
    const headOrBody = el.name === "head" || el.name === "body";

    let language = ctx.language;
    const lang = a["xml:lang"] ?? a.lang;
    if (lang !== undefined) language = lang.trim().toLowerCase() || null;
    if (!isRoot && !headOrBody && !hasRdfa(a)) {
      // No RDFa here (most of a page): step 5's last rule skips the element, so its children
      // see the same context (the language excepted).
      const next = language === ctx.language ? ctx : { ...ctx, language };
      pushChildren(el, next);
      continue;
    }
    const start = position - 1;

    // Steps 2-3: the default vocabulary and the prefix mappings.
    let vocab = ctx.vocab;
    if (a.vocab !== undefined) {
      const v = a.vocab.trim();
      vocab = v ? (resolveIri(v, base) ?? null) : null;
      const used = vocab === null ? null : iri(vocab);
      if (used) emit(baseRes, `${RDFA_NS}usesVocabulary`, used, el, "vocab");
    }
    const prefixes = prefixesOf(a, ctx.prefixes);
    const scope: Scope = prefixes === ctx.prefixes && vocab === ctx.vocab
      ? ctx
      : { prefixes, vocab };

    // HTML+RDFa: next to @property, @rel/@rev values that are not CURIEs or IRIs are ignored.
    const relAttr = relValue(a.rel, a.property !== undefined);
    const revAttr = relValue(a.rev, a.property !== undefined);
    const rels = relAttr === null ? [] : predicates(relAttr, scope);
    const revs = revAttr === null ? [] : predicates(revAttr, scope);
    const types = a.typeof === undefined ? null : typeIris(a.typeof, scope);

    let newSubject: Resource | null = null;
    let currentObject: Resource | null = null;
    let typed: Resource | null = null;
    let skip = false;
    const hrefOrSrc = () => linkOf(a);
    if (relAttr === null && revAttr === null) {
      if (a.property !== undefined && a.content === undefined && a.datatype === undefined) {
        // Step 5.1.
        const about = resource(a.about, scope);
        newSubject = about ?? (isRoot ? baseRes : ctx.parentObject);
        if (types) {
          typed = about ?? (isRoot ? baseRes : null) ?? resource(a.resource, scope) ??
            hrefOrSrc() ?? (headOrBody ? newSubject : null) ?? newBlank();
          currentObject = typed;
        }
      } else {
        // Step 5.2.
        newSubject = resource(a.about, scope) ?? resource(a.resource, scope) ?? hrefOrSrc();
        if (!newSubject) {
          if (isRoot) newSubject = baseRes;
          else if (headOrBody) newSubject = ctx.parentObject;
          else if (types) newSubject = newBlank();
          else {
            newSubject = ctx.parentObject;
            if (a.property === undefined) skip = true;
          }
        }
        if (types) typed = newSubject;
      }
    } else {
      // Step 6.
      const about = resource(a.about, scope);
      if (about) {
        newSubject = about;
        if (types) typed = about;
      } else newSubject = isRoot ? baseRes : ctx.parentObject;
      currentObject = resource(a.resource, scope) ?? hrefOrSrc();
      if (!currentObject && types && a.about === undefined && !headOrBody) {
        currentObject = newBlank();
      }
      if (types && a.about === undefined) typed = headOrBody ? newSubject : currentObject;
    }

    // Step 7: types.
    if (typed && types) { for (const t of types) emit(typed, RDF_TYPE, t, el, "typeof"); }
    // Step 8: a new subject starts a new list mapping.
    const list = !skip && newSubject && newSubject !== ctx.parentObject
      ? new ListMapping(newSubject, ctx.parentObject, ctx.list)
      : ctx.list;
    const inlist = a.inlist !== undefined;
    // Step 9: links to a known object.
    if (currentObject) {
      for (const p of rels) {
        if (inlist) list.list(p).push(currentObject);
        else emit(newSubject!, p, currentObject, el, "rel");
      }
      for (const p of revs) emit(currentObject, p, newSubject!, el, "rev");
    }
    // Step 10: hanging links wait for the subjects below.
    const incomplete: Incomplete[] = [];
    if (!currentObject && (rels.length || revs.length)) {
      for (const p of rels) {
        incomplete.push(
          inlist ? { p, dir: "none", list: list.list(p) } : { p, dir: "forward", list: null },
        );
      }
      for (const p of revs) incomplete.push({ p, dir: "reverse", list: null });
      currentObject = newBlank();
    }
    // Step 11: the property value.
    if (a.property !== undefined) {
      const value = propertyValue(
        el,
        scope,
        language,
        relAttr !== null || revAttr !== null,
        types && a.about === undefined ? typed : null,
      );
      for (const p of predicates(a.property, scope)) {
        if (inlist) list.list(p).push(value);
        else emit(newSubject!, p, value, el, "property");
      }
    }
    // Step 12: complete the parent's hanging links.
    if (!skip && newSubject) {
      for (const inc of ctx.incomplete) {
        if (inc.dir === "forward") emit(ctx.parentSubject, inc.p, newSubject, el, "rel");
        else if (inc.dir === "reverse") emit(newSubject, inc.p, ctx.parentSubject, el, "rev");
        else inc.list!.push(newSubject);
      }
    }
    // Step 13: the children's context.
    const next: Ctx = skip ? { ...ctx, prefixes, vocab, language } : {
      parentSubject: newSubject ?? ctx.parentSubject,
      parentObject: currentObject ?? newSubject ?? ctx.parentSubject,
      prefixes,
      incomplete,
      list,
      language,
      vocab,
    };
    stack.push([el, list === ctx.list ? null : list, start]);
    pushChildren(el, next);
  }
  // The lists of the document's own subject (the root element has no parent object, so its
  // list mapping is its own).
  if (first) emitLists(root.list, first);
  return {
    statements: copyProperties(statements.filter(resolvable)),
    base,
    span: (el) => {
      const v = spans.get(el);
      return v === undefined ? null : [Math.floor(v / SPAN), v % SPAN];
    },
  };

  function pushChildren(el: DomElement, ctx: Ctx): void {
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], ctx]);
  }

  /** Step 14: the lists an element's subject collected, as rdf:first/rdf:rest chains. */
  function emitLists(own: ListMapping, el: DomElement): void {
    if (!own.lists) return;
    for (const [p, items] of own.lists) {
      if (!items.length) {
        emit(own.subject, p, { kind: "resource", blank: false, value: `${RDF_NS}nil` }, el, "list");
        continue;
      }
      const nodes = items.map(() => newBlank());
      emit(own.subject, p, nodes[0], el, "list");
      nodes.forEach((n, i) => {
        emit(n, `${RDF_NS}first`, items[i], el, "list");
        const rest = i + 1 < nodes.length
          ? nodes[i + 1]
          : { kind: "resource" as const, blank: false, value: `${RDF_NS}nil` };
        emit(n, `${RDF_NS}rest`, rest, el, "list");
      });
    }
  }

  /** Step 11's choice of value, in the specification's order. */
  function propertyValue(
    el: DomElement,
    scope: Scope,
    language: string | null,
    hasLinks: boolean,
    typedObject: Resource | null,
  ): Resource | PendingLiteral {
    const a = el.attribs;
    const time = el.name === "time";
    if (a.datatype !== undefined) {
      const dt = a.datatype.trim() ? termIri(a.datatype.trim(), scope) : null;
      const markup = dt === XML_LITERAL || dt === RDF_HTML;
      const lexical = a.content ?? (a.datetime !== undefined && !markup ? a.datetime : null);
      return pending(el, lexical, dt, markup && a.content === undefined, false, language);
    }
    if (a.content !== undefined) return pending(el, a.content, null, false, time, language);
    if (a.datetime !== undefined) return pending(el, a.datetime, null, false, true, language);
    if (!hasLinks) {
      const r = resource(a.resource, scope) ?? linkOf(a);
      if (r) return r;
    }
    if (typedObject) return typedObject;
    return pending(el, null, null, false, time, language);
  }
}

function pending(
  el: DomElement,
  lexical: string | null,
  datatype: string | null,
  markup: boolean,
  byForm: boolean,
  language: string | null,
): PendingLiteral {
  return {
    kind: "literal",
    el,
    lexical,
    markup,
    datatype,
    time: byForm && datatype === null,
    language: datatype === null ? language : null,
  };
}

/** The triples of a processed page, literals read exactly as RDFa specifies. */
export function graphTriples(graph: RdfaGraph): Triple[] {
  const out: Triple[] = [];
  for (const st of graph.statements) {
    out.push({
      subject: resourceTerm(st.s) as Triple["subject"],
      predicate: { termType: "NamedNode", value: st.p },
      object: st.o.kind === "literal" ? literalTerm(st.o) : resourceTerm(st.o),
    });
  }
  return out;
}

/** A resource as an RDF term. */
export function resourceTerm(r: Resource): Term {
  return r.blank
    ? { termType: "BlankNode", value: r.value }
    : { termType: "NamedNode", value: r.value };
}

/** A pending literal as RDF says it: the exact text content (or markup), its datatype. */
export function literalTerm(l: PendingLiteral): Term {
  const value = l.lexical ?? (l.markup ? markupOf(l.el) : textContent(l.el));
  const datatype = l.datatype ?? (l.time ? datetimeDatatype(value) : null);
  return literal(value, datatype, l.language);
}

/** The datatype a pending literal ends up with (the lexical form decides for `<time>`). */
export function literalDatatype(l: PendingLiteral, value: () => string): string | null {
  if (l.datatype) return l.datatype;
  return l.time ? datetimeDatatype(value()) : null;
}

function hasRdfa(a: Record<string, string>): boolean {
  for (const name in a) if (RDFA_ATTRS.has(name) || name.startsWith("xmlns:")) return true;
  return false;
}

/** A statement whose link IRIs all resolved. */
function resolvable(st: Statement): boolean {
  return st.s.value !== "" && (st.o.kind === "literal" || st.o.value !== "");
}

function same(a: Resource, b: Resource): boolean {
  return a === b || (a.blank === b.blank && a.value === b.value);
}

/** `rel`/`rev` as RDFa reads it: next to `property`, only CURIEs and IRIs count. */
function relValue(raw: string | undefined, withProperty: boolean): string | null {
  if (raw === undefined) return null;
  if (!withProperty) return raw;
  const kept = raw.trim().split(/\s+/).filter((t) => t.includes(":"));
  return kept.length ? kept.join(" ") : null;
}

/**
 * Resolved attribute values per prefix mapping, vocabulary and kind (pages repeat the same
 * `property` and `typeof` values many times). Keyed by the attribute string itself, whose hash
 * the engine keeps, so a hit costs no string building.
 */
const termCache = new WeakMap<object, Map<string, Map<string, string[] | Resource[]>>>();

function cached<T extends string[] | Resource[]>(
  raw: string,
  ctx: Scope,
  kind: "p" | "t",
  make: () => T,
): T {
  let byScope = termCache.get(ctx.prefixes);
  if (!byScope) termCache.set(ctx.prefixes, byScope = new Map());
  const scopeKey = kind + (ctx.vocab ?? "");
  let byRaw = byScope.get(scopeKey);
  if (!byRaw) byScope.set(scopeKey, byRaw = new Map());
  const hit = byRaw.get(raw);
  if (hit) return hit as T;
  const value = make();
  if (byRaw.size < 5000) byRaw.set(raw, value);
  return value;
}

/** Predicates of `property`/`rel`/`rev`: terms, CURIEs or IRIs; never blank nodes. */
function predicates(raw: string, ctx: Scope): string[] {
  return cached(raw, ctx, "p", () => resolvePredicates(raw, ctx));
}

function resolvePredicates(raw: string, ctx: Scope): string[] {
  const out: string[] = [];
  for (const t of raw.trim().split(/\s+/)) {
    const p = t ? termIri(t, ctx) : null;
    if (p !== null && !out.includes(p)) out.push(p);
  }
  return out;
}

/** `typeof` values (a blank node CURIE is allowed there). */
function typeIris(raw: string, ctx: Scope): Resource[] {
  return cached(raw, ctx, "t", () => resolveTypes(raw, ctx));
}

function resolveTypes(raw: string, ctx: Scope): Resource[] {
  const out: Resource[] = [];
  for (const t of raw.trim().split(/\s+/)) {
    if (!t) continue;
    if (t.startsWith("_:")) {
      out.push({ kind: "resource", blank: true, value: `u_${t.slice(2)}` });
      continue;
    }
    const v = termIri(t, ctx);
    if (v !== null && !out.some((r) => r.value === v)) {
      out.push({ kind: "resource", blank: false, value: v });
    }
  }
  return out;
}

/** A TERMorCURIEorAbsIRI as an absolute IRI, or null when it names nothing (or a blank node). */
function termIri(t: string, ctx: Scope): string | null {
  const colon = t.indexOf(":");
  if (colon < 0) {
    if (ctx.vocab) return checkedIri(ctx.vocab + t);
    return INITIAL_TERMS[t.toLowerCase()] ?? null;
  }
  if (t.startsWith("_:")) return null;
  return checkedIri(expandCurie(t, ctx.prefixes) ?? t);
}

/** "ex:name" with `ex` mapped (":name" is the XHTML vocabulary's); null when unmapped. */
function expandCurie(curie: string, prefixes: Readonly<Record<string, string>>): string | null {
  const colon = curie.indexOf(":");
  if (colon < 0) return null;
  const prefix = curie.slice(0, colon).toLowerCase();
  const reference = curie.slice(colon + 1);
  if (prefix === "") return XHV_NS + reference;
  if (prefix === "_") return null;
  const ns = Object.hasOwn(prefixes, prefix) ? prefixes[prefix] : undefined;
  return ns === undefined ? null : ns + reference;
}

/** An absolute IRI (a scheme, no spaces), or null. */
function checkedIri(v: string): string | null {
  return /^[a-z][a-z0-9+.-]*:[^\s"<>{}|\\^`]*$/i.test(v) ? v : null;
}

/**
 * An IRI reference resolved against the base: an absolute IRI is kept as written (RDF compares
 * IRIs as strings: "http://example.org" is not "http://example.org/"), a relative one resolved.
 */
function resolveIri(raw: string, base: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return checkedIri(raw);
  if (raw === "") return base.replace(/#.*$/, "");
  const resolved = absoluteUrl(raw, base);
  return resolved === null ? null : checkedIri(resolved);
}

/** The prefix mappings in scope on an element: `prefix` and `xmlns:` over the parent's. */
function prefixesOf(
  a: Record<string, string>,
  parent: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  let out: Record<string, string> | null = null;
  const set = (prefix: string, ns: string) => {
    const p = prefix.toLowerCase();
    // "_" is reserved for blank nodes; a prefix must be an NCName.
    if (p === "_" || !/^[a-z_][\w.-]*$/i.test(p)) return;
    (out ??= { ...parent })[p] = ns;
  };
  for (const name in a) {
    if (name.startsWith("xmlns:")) set(name.slice(6), a[name].trim());
  }
  if (a.prefix !== undefined) {
    const re = /([^\s:]+):\s+(\S+)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(a.prefix)) !== null) set(m[1], m[2]);
  }
  return out ?? parent;
}

/**
 * RDFa's vocabulary expansion by property copying (rdfa:copy of an rdfa:Pattern, RDFa Core 1.1
 * section 10.1 / HTML+RDFa 1.1 section 3.5): a pattern's statements are copied to the subjects that
 * refer to it, then the referenced patterns and the copy statements are removed. Chains of
 * patterns are followed a few levels deep.
 */
function copyProperties(input: Statement[]): Statement[] {
  const COPY = `${RDFA_NS}copy`;
  const PATTERN = `${RDFA_NS}Pattern`;
  if (!input.some((s) => s.p === COPY)) return input;
  const key = (r: Resource) => (r.blank ? "_:" : "") + r.value;
  const isPatternType = (s: Statement) =>
    s.p === RDF_TYPE && s.o.kind === "resource" && s.o.value === PATTERN;
  const patterns = new Set(input.filter(isPatternType).map((s) => key(s.s)));
  const used = new Set<string>();
  let statements = input;
  for (let round = 0; round < 5; round++) {
    const bySubject = new Map<string, Statement[]>();
    for (const s of statements) {
      const k = key(s.s);
      if (patterns.has(k)) (bySubject.get(k) ?? bySubject.set(k, []).get(k)!).push(s);
    }
    const kept: Statement[] = [];
    const added: Statement[] = [];
    let again = false;
    for (const s of statements) {
      if (s.p !== COPY || s.o.kind !== "resource" || !patterns.has(key(s.o))) {
        kept.push(s);
        continue;
      }
      used.add(key(s.o));
      for (const t of bySubject.get(key(s.o)) ?? []) {
        if (isPatternType(t) || kept.length + added.length >= MAX_STATEMENTS) continue;
        added.push({ ...t, s: s.s, via: "copy" });
        if (t.p === COPY) again = true;
      }
    }
    statements = kept.concat(added);
    if (!again) break;
  }
  return statements.filter((s) => !used.has(key(s.s)));
}

/** An element's text content: every descendant text node, as the DOM's textContent reads it. */
export function textContent(el: DomElement): string {
  const parts: string[] = [];
  let length = 0;
  const stack: DomNode[] = [...el.children].reverse();
  let budget = 200_000;
  while (stack.length && length < MAX_LITERAL && budget-- > 0) {
    const node = stack.pop()!;
    if (node.type === "text") {
      parts.push(node.data);
      length += node.data.length;
    } else if (isElement(node)) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  return parts.join("").slice(0, MAX_LITERAL);
}

/** An element's content as markup (the lexical form of an XMLLiteral). */
function markupOf(el: DomElement): string {
  const out: string[] = [];
  let length = 0;
  const stack: (DomNode | string)[] = [...el.children].reverse();
  let budget = 200_000;
  while (stack.length && length < MAX_LITERAL && budget-- > 0) {
    const node = stack.pop()!;
    let piece = "";
    if (typeof node === "string") piece = node;
    else if (node.type === "text") piece = escapeXml(node.data, false);
    else if (isElement(node)) {
      const attrs = Object.entries(node.attribs).map(([k, v]) => ` ${k}="${escapeXml(v, true)}"`)
        .join("");
      if (!node.children.length) piece = `<${node.name}${attrs}/>`;
      else {
        piece = `<${node.name}${attrs}>`;
        stack.push(`</${node.name}>`);
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    }
    out.push(piece);
    length += piece.length;
  }
  return out.join("").slice(0, MAX_LITERAL);
}

function escapeXml(s: string, attribute: boolean): string {
  const t = s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return attribute ? t.replace(/"/g, "&quot;") : t;
}

/**
 * Every RDFa triple a page states, as RDFa 1.1 specifies them (HTML+RDFa 1.1): `pageUrl` is the
 * page's final URL (a `<base href>` on the page overrides it, as in browsers).
 *
 * @example
 * ```ts
 * const triples = extractRdfaTriples(
 *   '<html><head><meta property="og:title" content="Hi"></head></html>',
 *   "https://example.com/",
 * );
 * // [{ subject: { termType: "NamedNode", value: "https://example.com/" },
 * //    predicate: { termType: "NamedNode", value: "http://ogp.me/ns#title" },
 * //    object: { termType: "Literal", value: "Hi", language: "", datatype: {...xsd:string} } }]
 * ```
 */
export function extractRdfaTriples(html: string, pageUrl: string): Triple[] {
  const doc = parseDom(html);
  return graphTriples(processRdfa(doc, baseUrlOf(doc, pageUrl)));
}
