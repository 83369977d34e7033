/**
 * The page as a DOM (htmlparser2's DomHandler, fed by our depth-linear parser), for the parts of
 * extraction that need a tree: microdata, RDFa and the page facts that depend on structure
 * (breadcrumb trails, question + answer pairs, `<address>`). Every walk here is iterative, so
 * nesting depth cannot overflow the call stack, and bounded by a node budget.
 */
import { DomHandler, type parseDocument } from "htmlparser2";
import { LinearParser } from "../html/linear_parser.ts";
import { collapseWhitespace } from "../html/text_tools.ts";

/** A parsed document. */
export type DomDocument = ReturnType<typeof parseDocument>;
/** Any node of the tree. */
export type DomNode = DomDocument["children"][number];
/** An element. */
export type DomElement = Extract<DomNode, { attribs: Record<string, string> }>;
/** Anything that has children. */
export type DomParent = DomDocument | DomElement;

/** Elements whose text is not rendered. */
const HIDDEN_TEXT = new Set(["script", "style", "noscript", "template", "head", "title"]);

/** Parses HTML into a DOM (never throws; malformed markup is repaired as htmlparser2 does). */
export function parseDom(html: string): DomDocument {
  const handler = new DomHandler(undefined, { withStartIndices: false });
  const parser = new LinearParser(handler, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  parser.end(html);
  return handler.root;
}

/** Whether a node is an element. */
export function isElement(node: DomNode | DomDocument): node is DomElement {
  return "attribs" in node && typeof (node as DomElement).name === "string";
}

/** Elements under `root` in document order (pre-order, iterative), at most `max`. */
export function* elements(root: DomParent, max = 200_000): Generator<DomElement> {
  const stack: DomNode[] = [...root.children].reverse();
  let seen = 0;
  while (stack.length && seen < max) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    seen++;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/**
 * Rendered text of an element: text nodes outside script/style/template, whitespace collapsed,
 * block boundaries kept as spaces. Stops after `maxChars`, or when `budget.nodes` (shared by the
 * calls of one extraction, so nested elements that each want their text stay linear) runs out.
 */
export function textOf(el: DomParent, maxChars = 5000, budget?: { nodes: number }): string {
  const parts: string[] = [];
  let length = 0;
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length && length < maxChars) {
    if (budget && budget.nodes-- <= 0) break;
    const node = stack.pop()!;
    if (node.type === "text") {
      parts.push(node.data);
      length += node.data.length;
    } else if (isElement(node)) {
      if (HIDDEN_TEXT.has(node.name)) continue;
      if (node.name === "br" || node.name === "p" || node.name === "li") parts.push(" ");
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  return collapseWhitespace(parts.join("")).slice(0, maxChars);
}

/** An attribute, trimmed, or null when absent. */
export function attr(el: DomElement, name: string): string | null {
  const v = el.attribs[name];
  return v === undefined ? null : v.trim();
}

/** Space-separated tokens of an attribute. */
export function tokens(el: DomElement, name: string): string[] {
  return (el.attribs[name] ?? "").split(/\s+/).filter(Boolean);
}

/** The nearest ancestor-or-self element matching `test`, within `maxUp` levels. */
export function closest(
  el: DomElement,
  test: (e: DomElement) => boolean,
  maxUp = 200,
): DomElement | null {
  let cur: DomElement | null = el;
  for (let i = 0; cur && i <= maxUp; i++) {
    if (test(cur)) return cur;
    const parent: DomParent | null = cur.parent as DomParent | null;
    cur = parent && isElement(parent) ? parent : null;
  }
  return null;
}

/** Resolves a URL against a base; null for anything but http(s) (or when it does not parse). */
export function absoluteUrl(value: string | null, base: string): string | null {
  if (!value) return null;
  try {
    const u = new URL(value.trim(), base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** The document's `<base href>` resolved against the page URL, or the page URL. */
export function baseUrlOf(doc: DomDocument, pageUrl: string): string {
  for (const el of elements(doc, 5000)) {
    if (el.name === "base" && el.attribs.href) {
      return absoluteUrl(el.attribs.href, pageUrl) ?? pageUrl;
    }
    if (el.name === "body") break;
  }
  return pageUrl;
}
