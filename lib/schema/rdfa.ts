/**
 * RDFa Lite 1.1 items (`vocab`, `prefix`, `typeof`, `property`, `resource`), as schema.org pages
 * use them: an element with `typeof` starts an item (top-level, or the value of its own
 * `property`); `property` elements add values to the nearest enclosing item: `content`, then
 * `resource`/`href`/`src`, then `datetime`, else the text. Terms resolve through `vocab`, the
 * page's `prefix` declarations and RDFa's initial context (`schema:`, `og:`, ...). `rel`/`rev`
 * of full RDFa Core are not read. One iterative walk, no recursion.
 */
import type { DetectedItem } from "./record.ts";
import { addValue, type JsonObject, shortTerm } from "./terms.ts";
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

/** Prefixes RDFa 1.1's initial context predefines (those pages use). */
const INITIAL_PREFIXES: Record<string, string> = {
  schema: "http://schema.org/",
  og: "http://ogp.me/ns#",
  dc: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

interface Ctx {
  vocab: string | null;
  prefixes: Record<string, string>;
  /** The item (or embedded node) properties attach to, or null outside any item. */
  subject: JsonObject | null;
}

/** Extracts the page's RDFa items. */
export function extractRdfa(doc: DomDocument, baseUrl: string): DetectedItem[] {
  const items: DetectedItem[] = [];
  const root: Ctx = { vocab: null, prefixes: INITIAL_PREFIXES, subject: null };
  const stack: [DomNode, Ctx][] = [...doc.children].reverse().map((n) => [n, root]);
  let visited = 0;
  while (stack.length && visited++ < 200_000) {
    const [node, parent] = stack.pop()!;
    if (!isElement(node)) continue;
    const el = node;
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
    const typeofAttr = attr(el, "typeof");
    const properties = (attr(el, "property") ?? "").split(/\s+/).filter(Boolean)
      .map((p) => expand(p, ctx)).filter((p): p is string => p !== null).map(shortTerm);
    if (typeofAttr !== null) {
      const types = typeofAttr.split(/\s+/).filter(Boolean).map((t) => expand(t, ctx))
        .filter((t): t is string => t !== null).map(shortTerm);
      const id = attr(el, "resource") ?? attr(el, "about");
      const node: JsonObject = {};
      if (properties.length && ctx.subject) {
        if (types.length) node["@type"] = types.length === 1 ? types[0] : types;
        if (id) node["@id"] = absoluteUrl(id, baseUrl) ?? id;
        for (const p of properties) addValue(ctx.subject, p, node);
      } else if (items.length < MAX_ITEMS) {
        items.push({
          index: items.length,
          source: "rdfa",
          id: id ? absoluteUrl(id, baseUrl) ?? id : null,
          types,
          properties: node,
          refs: [],
          location: `RDFa item ${items.length + 1} (<${el.name}>)`,
        });
      } else {
        continue;
      }
      ctx = { ...ctx, subject: node };
    } else if (properties.length && ctx.subject) {
      const value = propertyValue(el, baseUrl);
      for (const p of properties) addValue(ctx.subject, p, value);
      // A property with a literal value from its text has no properties inside worth reading,
      // but one given by `content` or a link may wrap more properties of the same subject.
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], ctx]);
  }
  return items;
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

function propertyValue(el: DomElement, baseUrl: string): string {
  const content = attr(el, "content");
  if (content !== null) return content;
  const link = attr(el, "resource") ?? attr(el, "href") ?? attr(el, "src");
  if (link !== null) return absoluteUrl(link, baseUrl) ?? link;
  if (el.name === "time") return attr(el, "datetime") ?? textOf(el);
  return textOf(el);
}
