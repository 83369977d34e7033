/**
 * RDFa literals as the processor leaves them (statement.ts PendingLiteral) and as RDF reads
 * them: the exact text content of the element, or its markup for an rdf:XMLLiteral, with the
 * datatype `datatype` names or, for `<time>` and `@datetime`, the one the value's form names.
 */
import { type DomElement, type DomNode, isElement } from "../dom.ts";
import { datetimeDatatype, literal, type Term } from "../rdf_terms.ts";
import type { PendingLiteral } from "./statement.ts";

/** A literal read from an element's text is cut at this many characters. */
const MAX_LITERAL = 65_536;

/** A literal of an element: `lexical` an attribute's value, or null for the element's content. */
export function pending(
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

/**
 * Nodes the literals of one page may visit in all (nested elements each reading their whole
 * content would otherwise cost the square of the nesting depth).
 */
export const TEXT_NODES = 1_000_000;

/** What is left of a page's {@link TEXT_NODES}. */
export interface TextBudget {
  nodes: number;
}

/** A pending literal as RDF says it: the exact text content (or markup), its datatype. */
export function literalTerm(l: PendingLiteral, budget: TextBudget): Term {
  const value = l.lexical ?? (l.markup ? markupOf(l.el, budget) : textContent(l.el, budget));
  const datatype = l.datatype ?? (l.time ? datetimeDatatype(value) : null);
  return literal(value, datatype, l.language);
}

/** The datatype a pending literal ends up with (the lexical form decides for `<time>`). */
export function literalDatatype(l: PendingLiteral, value: () => string): string | null {
  if (l.datatype) return l.datatype;
  return l.time ? datetimeDatatype(value()) : null;
}

/** An element's text content: every descendant text node, as the DOM's textContent reads it. */
export function textContent(el: DomElement, budget: TextBudget): string {
  const parts: string[] = [];
  let length = 0;
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length && length < MAX_LITERAL && budget.nodes-- > 0) {
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
function markupOf(el: DomElement, budget: TextBudget): string {
  const out: string[] = [];
  let length = 0;
  const stack: (DomNode | string)[] = [...el.children].reverse();
  while (stack.length && length < MAX_LITERAL && budget.nodes-- > 0) {
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
