/**
 * An RDFa 1.1 processor for HTML: the sequence of RDFa Core 1.1 section 7.5
 * (https://www.w3.org/TR/rdfa-core/#s_sequence) with the rules HTML+RDFa 1.1 adds
 * (https://www.w3.org/TR/html-rdfa/#extensions-to-rdfa-core-1-1), both checked 2026-11-26, run
 * over our DOM (lib/engines/structured/dom.ts). It yields every statement the page makes, each with the
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
import { type DomDocument, type DomElement, type DomNode, isElement } from "../dom.ts";
import { INITIAL_PREFIXES } from "../../html/rdfa_context.ts";
import { RDF_TYPE } from "../rdf_terms.ts";
import { copyProperties } from "./copy.ts";
import {
  expandCurie,
  LinkIri,
  predicates,
  prefixesOf,
  relValue,
  resolveIri,
  type Scope,
  termIri,
  typeIris,
} from "./iri.ts";
import { pending } from "./literal.ts";
import { emitLists, type Incomplete, ListMapping } from "./lists.ts";
import type { PendingLiteral, RdfaGraph, Resource, Statement, Via } from "./statement.ts";
import { cutAt } from "../../../kit/text/trim.ts";

const RDFA_NS = "http://www.w3.org/ns/rdfa#";
const XML_LITERAL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral";
const RDF_HTML = "http://www.w3.org/1999/02/22-rdf-syntax-ns#HTML";

/** At most this many elements are processed (the rest of a larger page is not read). */
const MAX_ELEMENTS = 200_000;
/** Element positions are below this (MAX_ELEMENTS), so a span packs into one number. */
const SPAN = 262_144;
/** At most this many statements are kept. */
const MAX_STATEMENTS = 50_000;

/** Attributes that make an element more than a pass-through for RDFa. */
const RDFA_ATTRS = new Set([
  "about",
  "content",
  "datatype",
  "datetime",
  "inlist",
  "prefix",
  "property",
  "rel",
  "resource",
  "rev",
  "typeof",
  "vocab",
]);

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
  const base = cutAt(pageBase, "#");
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
  /** The position of the element being processed (statements record it). */
  let current = 0;
  const emit = (s: Resource, p: string, o: Resource | PendingLiteral, el: DomElement, via: Via) => {
    if (statements.length < MAX_STATEMENTS) statements.push({ s, p, o, el, pos: current, via });
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
      current = start;
      if (own) emitLists(own, (st, p, o) => emit(st, p, o, el, "list"), newBlank);
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
    if (!isRoot && !headOrBody && !hasRdfa(a) && passesThrough(el, ctx)) {
      // No RDFa here (most of a page): step 5's last rule skips the element, so its children
      // see the same context (the language excepted).
      const next = language === ctx.language ? ctx : { ...ctx, language };
      pushChildren(el, next);
      continue;
    }
    const start = position - 1;
    current = start;

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
  current = 0;
  if (first) emitLists(root.list, (st, p, o) => emit(st, p, o, first, "list"), newBlank);
  return {
    statements: copyProperties(statements.filter(resolvable), MAX_STATEMENTS),
    base,
    span: (el) => {
      const v = spans.get(el);
      return v === undefined ? null : [Math.floor(v / SPAN), v % SPAN];
    },
  };

  function pushChildren(el: DomElement, ctx: Ctx): void {
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], ctx]);
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

function hasRdfa(a: Record<string, string>): boolean {
  for (const name in a) if (RDFA_ATTRS.has(name) || name.startsWith("xmlns:")) return true;
  return false;
}

/**
 * Whether an element without RDFa attributes (`href`/`src` aside) changes nothing: without a link
 * it is skipped (step 5); a link (`<a href>`, `<img src>`) is a new subject, which matters only to
 * a hanging rel it completes or to elements inside it, so a text-only link leaves no trace.
 */
function passesThrough(el: DomElement, ctx: Ctx): boolean {
  if (el.attribs.href === undefined && el.attribs.src === undefined) return true;
  return ctx.incomplete.length === 0 && !el.children.some(isElement);
}

/** A statement whose link IRIs all resolved. */
function resolvable(st: Statement): boolean {
  return st.s.value !== "" && (st.o.kind === "literal" || st.o.value !== "");
}
