/**
 * The last steps of generate.ts: lists cut to size, the page's nodes that Google's rules still
 * reject dropped or trimmed (the paste must be no worse than the page), dangling references
 * removed, duplicate @ids folded, what Google's rules still miss listed, and the script built.
 */
import { dropDanglingRefs } from "./graph_tools.ts";
import type { DetectedItem, Generated } from "./record.ts";
import { asList, isObject, type JsonObject, type JsonValue, typesOf } from "./terms.ts";
import { linkRefs } from "./jsonld.ts";
import { validateItems } from "./validate.ts";
import { isA } from "./vocabulary.ts";

/** The finished result from the built graph, its node list and what to fill in so far. */
export function finishGraph(
  graph: JsonObject[],
  nodes: Generated["nodes"],
  fillIn: Generated["fillIn"],
): Generated {
  // Huge lists (a 200,000-entry sameAs) are cut before anything reads them again.
  for (let i = 0; i < graph.length; i++) graph[i] = capLists(graph[i]);
  // The paste must be no worse than the page: a nested value with an error is dropped from a
  // node the page declared; a kept item, or a declared item that is not the page's main kind,
  // that still has an error (nothing on the page states what is missing) is left out.
  for (let round = 0; round < 3; round++) {
    const broken = brokenNodes(graph, nodes);
    if (!broken.size) break;
    for (const [id, paths] of broken) {
      const at = graph.findIndex((x) => x["@id"] === id);
      if (at < 0) continue;
      const node = graph[at];
      const origin = nodes.find((x) => x.id === id)?.origin;
      const type = String(asList(node["@type"])[0]);
      const nested = [
        ...new Set(
          paths.filter((p) => p.split(".").length >= 3)
            .map((p) => p.split(".")[1].replace(/\[\d+\]$/, "")),
        ),
      ];
      if (origin === "merged" && nested.length && round === 0) {
        // A broken nested value goes only where the node is no worse without it.
        const before = paths.filter((p) => p.split(".").length < 3).length;
        const saved = nested.map((prop) => [prop, node[prop]] as const);
        for (const prop of nested) delete node[prop];
        const after = (brokenNodes(graph, nodes).get(id) ?? []).filter((p) =>
          p.split(".").length < 3
        ).length;
        if (after > before) {
          for (const [prop, value] of saved) node[prop] = value;
          continue;
        }
        fillIn.push(...nested.map((prop) => ({
          path: `${type}.${prop}`,
          why:
            `The page's ${type}.${prop} lacks what Google requires and the page does not state it, so it is left out; complete it in the page's markup.`,
        })));
        continue;
      }
      if (origin === "new" || (origin === "merged" && KEEP_ALWAYS.some((t) => isA(type, t)))) {
        continue;
      }
      graph.splice(at, 1);
      nodes.splice(nodes.findIndex((x) => x.id === id), 1);
      fillIn.push({
        path: type,
        why:
          `The page's ${type} lacks what Google requires and the page does not state it, so it is left out; add the missing properties to the page's own markup.`,
      });
    }
  }
  for (const path of dropDanglingRefs(graph)) {
    fillIn.push({
      path,
      why: "This referred to a node the page does not declare; add that node or the value itself.",
    });
  }
  const cleaned = mergeDuplicateIds(graph.map(stripUndefined).map((g) => capLists(g)));
  for (const f of ruleGaps(cleaned)) if (!fillIn.some((x) => x.path === f.path)) fillIn.push(f);
  const full = { "@context": "https://schema.org" as const, "@graph": cleaned };
  const listed = nodes.filter((x, i) => nodes.findIndex((y) => y.id === x.id) === i);
  return { graph: full, script: scriptFor(full), nodes: listed, fillIn };
}

/** The ready-to-paste script element (`<` escaped so no value can close the element). */
export function scriptFor(
  graph: JsonObject | { "@context": string; "@graph": JsonValue[] },
): string {
  return `<script type="application/ld+json">\n${
    JSON.stringify(graph, null, 2).replace(/</g, "\\u003c")
  }\n</script>`;
}

/** Google's rules run on the generated graph: what is still missing becomes "fill in". */
function ruleGaps(graph: JsonObject[]): Generated["fillIn"] {
  const items: DetectedItem[] = graph.map((node, index) => {
    const properties: JsonObject = {};
    for (const [k, v] of Object.entries(node)) if (!k.startsWith("@")) properties[k] = v;
    return {
      index,
      source: "json-ld",
      id: node["@id"] as string,
      types: typesOf(node),
      properties,
      refs: [],
      location: "generated",
    };
  });
  linkRefs(items, new Map(items.map((i) => [i.id!, i])));
  const { findings } = validateItems({ jsonLd: items, microdata: [], rdfa: [] });
  return findings.filter((f) => f.rule.startsWith("google:")).map((f) => ({
    path: f.path,
    why: f.message,
  }));
}

/** The longest list a generated property keeps (a page's 200,000-entry sameAs is noise). */
const MAX_LIST = 50;

/** A node with every list (at any depth) cut to {@link MAX_LIST} entries. */
function capLists(node: JsonObject, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = capValue(v, depth);
  return out;
}

function capValue(v: JsonValue, depth: number): JsonValue {
  if (depth > 30) return null;
  if (Array.isArray(v)) return v.slice(0, MAX_LIST).map((x) => capValue(x, depth + 1));
  return isObject(v) ? capLists(v, depth + 1) : v;
}

/**
 * Declared kinds a generated graph always keeps (the page's main entity and the site's own
 * nodes), with what is missing listed to fill in instead.
 */
const KEEP_ALWAYS = [
  "Recipe",
  "Event",
  "Product",
  "Article",
  "WebSite",
  "WebPage",
  "Organization",
  "Person",
  "BreadcrumbList",
];

/** The nodes (by @id) copied from the page that still have an error finding, with its paths. */
function brokenNodes(graph: JsonObject[], nodes: Generated["nodes"]): Map<string, string[]> {
  const keptIds = new Set(nodes.filter((x) => x.origin !== "new").map((x) => x.id));
  const broken = new Map<string, string[]>();
  if (!keptIds.size) return broken;
  const items: DetectedItem[] = graph.map((node, index) => ({
    index,
    source: "json-ld",
    id: node["@id"] as string,
    types: typesOf(node),
    properties: Object.fromEntries(Object.entries(node).filter(([k]) => !k.startsWith("@"))),
    refs: [],
    location: "generated",
  }));
  linkRefs(items, new Map(items.map((i) => [i.id!, i])));
  const { findings } = validateItems({ jsonLd: items, microdata: [], rdfa: [] });
  for (const f of findings) {
    const id = f.itemIndex === null ? null : items[f.itemIndex]?.id;
    if (f.severity !== "error" || !id || !keptIds.has(id)) continue;
    broken.set(id, [...broken.get(id) ?? [], f.path]);
  }
  return broken;
}

/** One node per @id: later nodes with an @id seen before are folded into the first. */
function mergeDuplicateIds(graph: JsonObject[]): JsonObject[] {
  const byId = new Map<string, JsonObject>();
  const out: JsonObject[] = [];
  for (const node of graph) {
    const id = node["@id"] as string;
    const first = byId.get(id);
    if (!first) {
      byId.set(id, node);
      out.push(node);
      continue;
    }
    for (const [k, v] of Object.entries(node)) if (!(k in first)) first[k] = v;
  }
  return out;
}

function stripUndefined(o: JsonObject): JsonObject {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
