/**
 * Microdata items, following the WHATWG algorithm: a top-level item is an element with
 * `itemscope` and no `itemprop`; its properties are the `itemprop` elements under it (and under
 * the elements its `itemref` names), not crossing into nested items, whose own element is the
 * property's value. Values: `content` (on any element, as Google reads it), then the element's
 * URL attribute (`href`, `src`, `data`), `value`, `datetime`, else its text.
 *
 * Like Google's parser and Adobe's (and unlike the WHATWG algorithm, which ignores them), an
 * element with `itemscope` and `itemprop` but no enclosing item is read as a top-level item, and
 * an `itemprop` element that carries an `itemtype` without `itemscope` and has no value of its
 * own (`<meta itemprop="interactionType" itemtype="https://schema.org/WatchAction">`) is read as
 * a node of that type.
 *
 * Iterative: items are filled from a work queue, so neither document depth nor item nesting
 * grows the call stack; item count, nesting and properties are capped.
 */
import type { DetectedItem } from "./record.ts";
import { addValue, type JsonObject, shortTerm } from "./terms.ts";
import { IRI, literalInfo, type TermInfo, TermLog } from "./item_terms.ts";
import { datetimeDatatype } from "./rdf_terms.ts";
import {
  absoluteUrl,
  attr,
  type DomDocument,
  type DomElement,
  elements,
  textOf,
  tokens,
} from "./dom.ts";

const MAX_ITEMS = 300;
const MAX_NESTING = 12;
const MAX_PROPS_PER_ITEM = 200;

/** Tags whose value is a URL, and the attribute that holds it. */
const URL_ATTR: Record<string, string> = {
  a: "href",
  area: "href",
  link: "href",
  img: "src",
  audio: "src",
  embed: "src",
  iframe: "src",
  source: "src",
  track: "src",
  video: "src",
  object: "data",
};

interface Job {
  el: DomElement;
  target: JsonObject;
  depth: number;
}

/** Extracts the page's microdata items. `baseUrl` resolves relative URLs. */
export function extractMicrodata(doc: DomDocument, baseUrl: string): DetectedItem[] {
  const items: DetectedItem[] = [];
  const byHtmlId = new Map<string, DomElement>();
  const tops: DomElement[] = [];
  const refIds: string[] = [];
  for (const el of elements(doc)) {
    if ("itemscope" in el.attribs) refIds.push(...tokens(el, "itemref"));
    const id = attr(el, "id");
    if (id && !byHtmlId.has(id)) byHtmlId.set(id, el);
    if ("itemscope" in el.attribs && (!("itemprop" in el.attribs) || !insideItem(el))) {
      tops.push(el);
    }
  }
  // An itemref'd element is a property of the item that refers to it, wherever it stands.
  const referenced = new Set<DomElement>();
  for (const ref of refIds) {
    const target = byHtmlId.get(ref);
    if (target) referenced.add(target);
  }
  const used = new Set<DomElement>();
  const queue: Job[] = [];
  const log = new TermLog();
  const languages = new Map<DomElement, string | null>();
  const roots = tops.filter((el) => !("itemprop" in el.attribs) || !underAny(el, referenced));
  for (const el of roots.slice(0, MAX_ITEMS)) {
    const item: DetectedItem = {
      index: items.length,
      source: "microdata",
      id: absoluteUrl(attr(el, "itemid"), baseUrl) ?? attr(el, "itemid"),
      types: itemTypes(el),
      properties: {},
      refs: [],
      location: `microdata item ${items.length + 1} (<${el.name}>)`,
    };
    items.push(item);
    used.add(el);
    queue.push({ el, target: item.properties, depth: 0 });
  }
  while (queue.length) {
    const job = queue.shift()!;
    let count = 0;
    for (const propEl of propertyElements(job.el, byHtmlId)) {
      if (count++ >= MAX_PROPS_PER_ITEM) break;
      const names = tokens(propEl, "itemprop").map(shortTerm);
      let value: JsonObject | string;
      let term: TermInfo | null = null;
      if ("itemscope" in propEl.attribs) {
        if (used.has(propEl) || job.depth >= MAX_NESTING) continue;
        used.add(propEl);
        const nested: JsonObject = {};
        const types = itemTypes(propEl);
        if (types.length) nested["@type"] = types.length === 1 ? types[0] : types;
        const itemid = attr(propEl, "itemid");
        if (itemid) nested["@id"] = absoluteUrl(itemid, baseUrl) ?? itemid;
        queue.push({ el: propEl, target: nested, depth: job.depth + 1 });
        value = nested;
      } else {
        value = propertyValue(propEl, baseUrl);
        const types = itemTypes(propEl);
        if (value === "" && types.length) {
          value = { "@type": types.length === 1 ? types[0] : types };
        } else term = valueTerm(propEl, value, languageOf(propEl, languages));
      }
      for (const name of names) {
        addValue(job.target, name, value);
        if (term) log.note(job.target, name, term);
      }
    }
  }
  for (const item of items) log.attach(item);
  return items;
}

/**
 * How a property value reads as RDF (the W3C Microdata to RDF note): a URL attribute's value is
 * an IRI; other values are literals in the element's language, a `<time>` value typed by its
 * lexical form.
 */
function valueTerm(el: DomElement, value: string, language: string | null): TermInfo {
  const fromAttribute = attr(el, "content") === null;
  if (fromAttribute && URL_ATTR[el.name] && value !== "") return IRI;
  const datatype = fromAttribute && el.name === "time" ? datetimeDatatype(value) : null;
  return literalInfo(datatype, language);
}

/** The language of an element (`lang` or `xml:lang`, inherited), memoised along the way up. */
function languageOf(el: DomElement, memo: Map<DomElement, string | null>): string | null {
  const chain: DomElement[] = [];
  let found: string | null = null;
  for (
    let cur: DomElement | null = el;
    cur && "attribs" in cur && chain.length < 1000;
    cur = cur.parent as DomElement | null
  ) {
    const known = memo.get(cur);
    if (known !== undefined) {
      found = known;
      break;
    }
    chain.push(cur);
    const lang = cur.attribs["xml:lang"] ?? cur.attribs.lang;
    if (lang !== undefined) {
      found = lang.trim().toLowerCase() || null;
      break;
    }
  }
  for (const c of chain) memo.set(c, found);
  return found;
}

/** Whether an element has an `itemscope` ancestor (whose property it may be). */
function insideItem(el: DomElement): boolean {
  for (let p = el.parent; p && "attribs" in p; p = p.parent) {
    if ("itemscope" in (p as DomElement).attribs) return true;
  }
  return false;
}

function underAny(el: DomElement, set: Set<DomElement>): boolean {
  if (!set.size) return false;
  for (let p: DomElement | null = el; p && "attribs" in p; p = p.parent as DomElement | null) {
    if (set.has(p)) return true;
  }
  return false;
}

/** Short type names of an item (`itemtype` may list several). */
function itemTypes(el: DomElement): string[] {
  return tokens(el, "itemtype").map(shortTerm);
}

/**
 * The `itemprop` elements that belong to the item rooted at `root`: descendants (and `itemref`
 * targets with theirs), not looking inside nested `itemscope` elements.
 */
function propertyElements(root: DomElement, byHtmlId: Map<string, DomElement>): DomElement[] {
  const out: DomElement[] = [];
  const starts: DomElement[] = [root];
  for (const ref of tokens(root, "itemref")) {
    const target = byHtmlId.get(ref);
    if (target && target !== root) starts.push(target);
  }
  const seen = new Set<DomElement>();
  for (const start of starts) {
    // itemref targets are themselves candidates; the root's own children start the walk.
    const stack: DomElement[] = start === root ? childElements(root).reverse() : [start];
    while (stack.length) {
      const el = stack.pop()!;
      if (seen.has(el)) continue;
      seen.add(el);
      if ("itemprop" in el.attribs) out.push(el);
      if ("itemscope" in el.attribs) continue;
      const kids = childElements(el);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return out;
}

function childElements(el: DomElement): DomElement[] {
  return el.children.filter((c): c is DomElement => "attribs" in c);
}

/** The value of a non-item property element. */
function propertyValue(el: DomElement, baseUrl: string): string {
  const content = attr(el, "content");
  if (content !== null) return content;
  const urlAttr = URL_ATTR[el.name];
  if (urlAttr) {
    const raw = attr(el, urlAttr);
    return raw === null ? "" : absoluteUrl(raw, baseUrl) ?? raw;
  }
  if (el.name === "data" || el.name === "meter") return attr(el, "value") ?? textOf(el);
  if (el.name === "time") return attr(el, "datetime") ?? textOf(el);
  return textOf(el);
}
