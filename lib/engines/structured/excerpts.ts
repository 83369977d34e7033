/**
 * Where in the code a finding is, as the Rich Results Test shows it: the lines of the JSON-LD
 * script around the value (or the syntax error) with the span to highlight. The script's text is
 * read with jsonc-parser (npm, the JSON scanner of VS Code), which gives offsets for a syntax
 * error and for every value of a parsed tree.
 */
import {
  findNodeAtLocation,
  type Node,
  parse,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import type { JsonLdBlock } from "../html/types.ts";
import type { DetectedItem, Excerpt, Finding } from "./record.ts";

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };
const CONTEXT_LINES = 2;
const MAX_LINE = 200;

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The excerpt of `text` around `offset` (`length` characters highlighted). */
export function excerptAt(text: string, offset: number, length: number, block: string): Excerpt {
  const at = lineColumn(text, offset);
  const all = text.split("\n");
  const first = Math.max(1, at.line - CONTEXT_LINES);
  const last = Math.min(all.length, at.line + CONTEXT_LINES);
  const lines = all.slice(first - 1, last).map((l) =>
    l.length > MAX_LINE ? `${l.slice(0, MAX_LINE - 1)}…` : l.replace(/\r$/, "")
  );
  const rest = (all[at.line - 1] ?? "").length - (at.column - 1);
  return {
    block,
    firstLine: first,
    lines,
    line: at.line,
    column: at.column,
    length: Math.max(0, Math.min(length, rest)),
  };
}

/** Where a JSON-LD script's text stops being JSON: the first error, with its excerpt. */
export function syntaxError(
  text: string,
  block: string,
): { message: string; excerpt: Excerpt } | null {
  const errors: ParseError[] = [];
  parse(text.replace(/^\uFEFF/, ""), errors, STRICT);
  const e = errors[0];
  if (!e) return null;
  const what = printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return { message: what, excerpt: excerptAt(text, e.offset, Math.max(1, e.length), block) };
}

/**
 * Adds to each JSON-LD finding about an item the excerpt of the value it is about (the deepest
 * part of its path the script has; the item itself when the property is missing). `blocks` are
 * the page's scripts, or per item the scripts of the page it was read from (the merged view holds
 * items of the server HTML and of the rendered DOM, each numbering its own blocks).
 */
export function attachExcerpts(
  findings: Finding[],
  jsonLdItems: DetectedItem[],
  blocks: JsonLdBlock[] | ((item: DetectedItem) => JsonLdBlock[]),
): Finding[] {
  const blocksOf = typeof blocks === "function" ? blocks : () => blocks;
  const trees = new Map<JsonLdBlock[], Map<number, Node | undefined>>();
  const tree = (list: JsonLdBlock[], b: number) => {
    let cache = trees.get(list);
    if (!cache) trees.set(list, cache = new Map());
    if (!cache.has(b)) {
      const text = list[b]?.text;
      cache.set(b, text && list[b].error === null ? parseTree(text) : undefined);
    }
    return cache.get(b);
  };
  return findings.map((f) => {
    if (f.excerpt || f.source !== "json-ld" || f.itemIndex === null) return f;
    const item = jsonLdItems[f.itemIndex];
    const where = item && /^JSON-LD block (\d+)(?:\[(\d+)\])?(?:, @graph\[(\d+)\])?$/.exec(
      item.location,
    );
    if (!where) return f;
    const list = blocksOf(item);
    const b = Number(where[1]) - 1;
    const root = tree(list, b);
    const text = list[b]?.text;
    if (!root || !text) return f;
    const base: (string | number)[] = [];
    if (where[2] !== undefined) base.push(Number(where[2]));
    if (where[3] !== undefined) base.push("@graph", Number(where[3]));
    const start = findNodeAtLocation(root, base);
    if (!start) return f;
    let node: Node = start;
    // The finding's path after its type: "Product.offers.price" -> offers, price.
    for (const step of f.path.split(".").slice(1)) {
      const m = /^(.*?)(?:\[(\d+)\])?$/.exec(step)!;
      let next: Node | undefined = findNodeAtLocation(node, [m[1]]) ??
        findNodeAtLocation(node, [`schema:${m[1]}`]);
      if (!next) break;
      if (next.type === "array") next = next.children?.[Number(m[2] ?? 0)] ?? next;
      node = next;
    }
    // A property node's value is what to show; a missing property shows the node's start.
    const at = node.parent?.type === "property" ? node.parent : node;
    const length = node.type === "object" || node.type === "array" ? 1 : at.length;
    return { ...f, excerpt: excerptAt(text, at.offset, length, `JSON-LD block ${b + 1}`) };
  });
}
