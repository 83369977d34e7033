/**
 * JSON-LD blocks into detected items, the way a JSON-LD processor flattens them: every top-level
 * node and every `@graph` member is an item; a nested node that has an `@id` is lifted into an
 * item of its own (its place taken by a `{"@id"}` reference) and merged with any other node of
 * the same `@id`, across blocks; nested nodes without an `@id` stay embedded. Relative `@id`s
 * resolve against the page URL, schema.org prefixes are dropped from types and property names.
 * Under schema.org's context, its aliases `type` and `id` mean `@type` and `@id`.
 * Walks are iterative and bounded, so a hostile block cannot exhaust the stack or the memory.
 */
import type { JsonLdBlock } from "../html/types.ts";
import type { DetectedItem, Finding } from "./record.ts";
import { FindingLog } from "./finding_log.ts";
import { propertyInfo } from "./vocabulary.ts";
import { jsonLdTerms, TermLog } from "./item_terms.ts";
import { syntaxError } from "./excerpts.ts";
import {
  addValue,
  isObject,
  isReference,
  type JsonObject,
  type JsonValue,
  shortTerm,
  typesOf,
} from "./terms.ts";

const MAX_ITEMS = 300;
const MAX_VISITS = 50_000;

/** What the JSON-LD blocks of a page give. */
export interface JsonLdExtraction {
  items: DetectedItem[];
  /** Blocks that do not parse, or lack a schema.org `@context`. */
  findings: Finding[];
}

interface Pending {
  /** The object being filled (an item's properties or an embedded node). */
  target: JsonObject;
  source: JsonObject;
  /** Nesting of the node on the page (embedded nodes are filled later, from the queue). */
  depth: number;
}

/** Nesting read from a JSON-LD node; deeper values are dropped (a hostile page nests 8,000). */
export const MAX_JSONLD_DEPTH = 20;

/** Extracts items from the page's JSON-LD blocks (see the module comment). */
export function extractJsonLd(blocks: JsonLdBlock[], pageUrl: string): JsonLdExtraction {
  // One finding per root can be 100,000 of them: grouped per kind, bounded (finding_log.ts).
  const findings = new FindingLog();
  const items: DetectedItem[] = [];
  const byId = new Map<string, DetectedItem>();
  const log = new TermLog();
  let visits = 0;

  const resolveId = (id: string): string => {
    if (id.startsWith("_:")) return id;
    try {
      return new URL(id, pageUrl).href;
    } catch {
      return id;
    }
  };

  /** The item for a node with an @id (created or merged), or a new anonymous item. */
  const itemFor = (node: JsonObject, location: string): DetectedItem => {
    const id = typeof node["@id"] === "string" ? resolveId(node["@id"]) : null;
    const existing = id ? byId.get(id) : undefined;
    if (existing) {
      for (const t of typesOf(node)) if (!existing.types.includes(t)) existing.types.push(t);
      return existing;
    }
    const item: DetectedItem = {
      index: items.length,
      source: "json-ld",
      id,
      types: typesOf(node),
      properties: {},
      refs: [],
      location,
    };
    if (items.length < MAX_ITEMS) items.push(item);
    if (id) byId.set(id, item);
    return item;
  };

  blocks.forEach((block, b) => {
    const where = `JSON-LD block ${b + 1}`;
    if (block.error !== null) {
      // Where the text stops being JSON, with the lines around it (excerpts.ts).
      const at = block.text === undefined
        ? null
        : syntaxError(block.text, `JSON-LD block ${b + 1}`);
      findings.add({
        severity: "error",
        source: "json-ld",
        itemIndex: null,
        path: `script[${b + 1}]`,
        type: null,
        property: null,
        // One position: ours (line and column in the block's own text) when the text was kept,
        // else the parser's own message, which says where.
        message: `JSON-LD block ${b + 1} could not be read ${
          at
            ? `at line ${at.excerpt.line}, column ${at.excerpt.column} (${at.message})`
            : `(${block.error})`
        }: it is not valid JSON, so search engines ignore all of it. Check for trailing commas, unescaped quotes and comments.`,
        rule: "json-ld",
        ...(at ? { excerpt: at.excerpt } : {}),
      });
      return;
    }
    const roots = Array.isArray(block.value) ? block.value : [block.value];
    roots.forEach((rawRoot, r) => {
      if (!isObject(rawRoot)) return;
      let root: JsonObject = rawRoot;
      const rootWhere = roots.length > 1 ? `${where}[${r}]` : where;
      const schemaContext = hasSchemaContext(root["@context"]);
      root = schemaContext ? dealias(root) : root;
      if (!schemaContext) {
        findings.add({
          severity: "error",
          source: "json-ld",
          itemIndex: null,
          path: `script[${b + 1}]${roots.length > 1 ? `[${r}]` : ""}`,
          type: null,
          property: "@context",
          message: root["@context"] === undefined
            ? `Add "@context": "https://schema.org" to this JSON-LD block: without it its types and properties mean nothing to search engines.`
            : `The @context of this block is not schema.org; set "@context": "https://schema.org".`,
          rule: "json-ld",
        });
      }
      const graph = root["@graph"];
      const members = Array.isArray(graph) ? graph : isObject(graph) ? [graph] : null;
      const tops: [JsonObject, string][] = members
        ? members.filter(isObject).map((m, i) => [
          schemaContext ? dealias(m) : m,
          `${rootWhere}, @graph[${i}]`,
        ])
        : [[root, rootWhere]];
      // Top-level nodes (and lifted nested nodes) are filled breadth-first from this queue.
      const queue: Pending[] = [];
      for (const [node, location] of tops) {
        if (isReference(node)) continue;
        const item = itemFor(node, location);
        queue.push({ target: item.properties, source: node, depth: 0 });
      }
      while (queue.length && visits < MAX_VISITS) {
        const { target, source, depth } = queue.shift()!;
        for (const [rawKey, value] of Object.entries(source)) {
          if (rawKey.startsWith("@")) continue;
          const key = shortTerm(rawKey);
          const iriProperty = schemaContext && isIriProperty(key);
          const converted = iriProperty
            ? resolveIris(convert(value, depth))
            : convert(value, depth);
          if (converted === undefined) continue;
          addValue(target, key, converted);
          for (const term of jsonLdTerms(value, iriProperty)) log.note(target, key, term);
        }
      }

      /** Relative IRIs of an IRI-typed property (strings, or in a list) made absolute. */
      function resolveIris(v: JsonValue | undefined): JsonValue | undefined {
        if (typeof v === "string") {
          return /^[a-z][a-z0-9+.-]*:/i.test(v.trim()) ? v : resolveId(v.trim());
        }
        return Array.isArray(v) ? v.map((x) => resolveIris(x) ?? x) : v;
      }

      /** Copies a value, lifting nested identified nodes into items (iterative over lists). */
      function convert(raw: unknown, depth = 0): JsonValue | undefined {
        let value = raw;
        visits++;
        if (visits > MAX_VISITS || depth > MAX_JSONLD_DEPTH) return undefined;
        if (Array.isArray(value)) {
          const out: JsonValue[] = [];
          for (const v of value) {
            const c = convert(v, depth + 1);
            if (c !== undefined) out.push(c);
          }
          return out;
        }
        if (!isObject(value)) {
          return value === undefined ? undefined : value as JsonValue;
        }
        if (schemaContext) value = dealias(value);
        return convertNode(value as JsonObject, depth);
      }

      function convertNode(value: JsonObject, depth: number): JsonValue | undefined {
        if (typeof value["@id"] === "string") {
          const id = resolveId(value["@id"]);
          if (!isReference(value)) {
            const item = itemFor(value, `${rootWhere}, nested`);
            // A lifted node is an item of its own: its nesting starts again (items are capped).
            queue.push({ target: item.properties, source: value, depth: 0 });
          }
          return { "@id": id };
        }
        if ("@value" in value || "@list" in value || "@set" in value) {
          const inner = value["@value"] ?? value["@list"] ?? value["@set"];
          return convert(inner, depth + 1);
        }
        // An embedded node without @id: copy it, its own nested values filled via the queue.
        const copy: JsonObject = {};
        const types = typesOf(value);
        if (types.length) copy["@type"] = types.length === 1 ? types[0] : types;
        queue.push({ target: copy, source: value, depth: depth + 1 });
        return copy;
      }
    });
  });

  for (const item of items) log.attach(item);
  return { items, findings: findings.list() };
}

/**
 * A node with schema.org's context aliases (`"type"` for `@type`, `"id"` for `@id`) spelled as
 * the keywords they stand for; the node itself when it uses none.
 */
export function dealias(node: JsonObject): JsonObject {
  if (!("type" in node) && !("id" in node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "type" && !("@type" in node)) out["@type"] = v;
    else if (k === "id" && !("@id" in node)) out["@id"] = v;
    else if (k !== "type" && k !== "id") out[k] = v;
  }
  return out;
}

/**
 * Whether schema.org's context types a property's values as IRIs ("@type": "@id"): the
 * properties whose only range is URL (url, sameAs, contentUrl...), so a string value is a
 * reference that resolves against the page, as a JSON-LD processor reads it.
 */
export function isIriProperty(key: string): boolean {
  const ranges = propertyInfo(key)?.ranges;
  return !!ranges && ranges.length === 1 && ranges[0] === "URL";
}

/** Whether a @context names schema.org (as a string, in a list, or as @vocab). */
export function hasSchemaContext(context: unknown): boolean {
  const ok = (s: unknown) =>
    typeof s === "string" && /^https?:\/\/(www\.)?schema\.org\/?$/i.test(s);
  if (ok(context)) return true;
  // A context list holds strings and objects, never lists: one level (8,000 nested lists would
  // otherwise exhaust the stack).
  if (Array.isArray(context)) return context.some((c) => !Array.isArray(c) && hasSchemaContext(c));
  if (isObject(context)) return ok(context["@vocab"]);
  return false;
}

/**
 * Records every `{"@id"}` reference of every item, with the item that declares that `@id` (of
 * any source: a microdata `itemid` or an RDFa `resource` counts).
 */
export function linkRefs(items: DetectedItem[], byId: ReadonlyMap<string, DetectedItem>): void {
  for (const item of items) {
    const stack: [JsonValue, string][] = Object.entries(item.properties).map(([k, v]) => [v, k]);
    let budget = 20_000;
    while (stack.length && budget-- > 0) {
      const [v, path] = stack.pop()!;
      if (Array.isArray(v)) {
        v.forEach((x, i) => stack.push([x, v.length > 1 ? `${path}[${i}]` : path]));
      } else if (isReference(v)) {
        const target = byId.get(v["@id"]);
        item.refs.push({
          path,
          id: v["@id"],
          target: target ? { source: target.source, index: target.index } : null,
        });
      } else if (isObject(v)) {
        for (const [k, x] of Object.entries(v)) {
          if (!k.startsWith("@")) stack.push([x, `${path}.${k}`]);
        }
      }
    }
    item.refs.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  }
}
