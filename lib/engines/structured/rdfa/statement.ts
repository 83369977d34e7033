/**
 * What the RDFa processor (processor.ts) states: resources (IRIs and blank nodes), literals
 * still to be read from their element, and statements with the element and attribute that made
 * them.
 */
import type { DomElement } from "../dom.ts";

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
  /** That element's document-order position (RdfaGraph.span's start). */
  pos: number;
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

/** Whether two resources are the same IRI or the same blank node. */
export function same(a: Resource, b: Resource): boolean {
  return a === b || (a.blank === b.blank && a.value === b.value);
}
