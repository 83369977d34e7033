/**
 * The graph as offered, checked against our own validator: lists cut to size, every node our
 * validator still finds an error in trimmed (a nested value dropped when that is enough) or left
 * out (nothing offered fails /validate; what is missing goes to "fill in by hand"), dangling
 * references removed, duplicate @ids folded, what Google's rules still miss listed, and the
 * script built.
 */
import { dropDanglingRefs } from "../graph_tools.ts";
import type { DetectedItem, Finding, Generated } from "../record.ts";
import { asList, isObject, type JsonObject, type JsonValue, typesOf } from "../terms.ts";
import { linkRefs } from "../jsonld.ts";
import { validateItems } from "../validate.ts";

/** The finished result from the built graph, its node list and what to fill in so far. */
export function finishGraph(
  graph: JsonObject[],
  nodes: Generated["nodes"],
  fillIn: Generated["fillIn"],
): Generated {
  // Huge lists (a 200,000-entry sameAs) are cut before anything reads them again.
  for (let i = 0; i < graph.length; i++) graph[i] = capLists(graph[i]);
  // The validator's findings on the graph as it stands (reused until the graph changes).
  let current: GraphFindings | null = repairValues(graph);
  // Nothing offered fails our own validator: a nested value with an error is dropped from a node
  // when the node is no worse without it; a node that still has an error (nothing on the page
  // states what is missing) is left out, and what it lacks is listed to fill in by hand.
  for (let round = 0; round < 3; round++) {
    const broken = brokenNodes(graph, nodes, current ?? graphFindings(graph));
    current = null;
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
      if (origin !== "kept" && nested.length && round === 0) {
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
            `The ${type}'s ${prop} lacks what Google requires and the page does not state it, so it is left out; complete it on the page and in its markup.`,
        })));
        continue;
      }
      graph.splice(at, 1);
      nodes.splice(nodes.findIndex((x) => x.id === id), 1);
      fillIn.push({
        path: type,
        why: `The ${type} lacks what Google requires, or gives it in a form Google rejects (${
          paths.slice(0, 3).join("; ")
        }), and the page states nothing better, so it is left out of the markup to paste; correct it on the page, then generate again.`,
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

/**
 * A value our validator rejects as of the wrong form: the text it quotes after "found", as in
 * `expects Date, found "yesterday" (use ISO 8601, e.g. "2024-05-01").` and
 * `"price" should be a number; found "89.OO".`, or null for any other message. Read with string
 * searches from both ends (the expression it replaces, three lazy `.*?` in a row, was polynomial
 * of high degree in the message).
 */
export function wrongFormValue(message: string): string | null {
  // Only the last line can hold it: the value ends the message, and no part of it crosses a line
  // (the hints in brackets are ours and one line too).
  const lastLine = message.split(/[\n\r\u2028\u2029]/).at(-1)!;
  const rest = afterFound(lastLine);
  if (rest === null || !rest.endsWith(".")) return null;
  let value = rest.slice(0, -1);
  // The hint in brackets at the end: from the first " (use " after the last ")" before it.
  if (value.endsWith(")")) {
    const hint = value.indexOf(" (use ", value.lastIndexOf(")", value.length - 2) + 1);
    if (hint >= 0 && hint + 6 <= value.length - 1) value = value.slice(0, hint);
  }
  if (value.endsWith("...")) value = value.slice(0, -3);
  else if (value.endsWith('"')) value = value.slice(0, -1);
  return value.startsWith('"') ? value.slice(1) : value;
}

/** What follows the first "expects ..., found " or "should be ...; found ", or null. */
function afterFound(message: string): string | null {
  const forms: [string, string][] = [["expects ", ", found "], ["should be ", "; found "]];
  let best: { at: number; rest: string } | null = null;
  for (const [lead, sep] of forms) {
    const at = message.indexOf(lead);
    if (at < 0 || (best && best.at <= at)) continue;
    const found = message.indexOf(sep, at + lead.length);
    if (found >= 0) best = { at, rest: message.slice(found + sep.length) };
  }
  return best?.rest ?? null;
}
/** A superseded property: the name to use instead. */
const SUPERSEDED = /^schema\.org replaced "([^"]+)" with "([^"]+)"; rename it\.$/;

/**
 * Values the page gives in a form our validator rejects (a date "yesterday", a price "89.OO")
 * are left out rather than offered, and superseded properties are renamed ("founders" ->
 * "founder"): nothing the generator could have avoided is offered.
 */
function repairValues(graph: JsonObject[]): GraphFindings | null {
  for (let round = 0; round < 2; round++) {
    let changed = false;
    const findings = graphFindings(graph);
    for (const { index, finding } of findings) {
      const steps = finding.path.split(".").slice(1);
      const holder = objectAt(graph[index], steps.slice(0, -1));
      const key = steps.at(-1)?.replace(/\[\d+\]$/, "");
      if (!holder || !key || holder[key] === undefined) continue;
      const wrong = wrongFormValue(finding.message);
      const renamed = SUPERSEDED.exec(finding.message);
      if (wrong !== null) {
        const kept = asList(holder[key]).filter((v) =>
          !(typeof v === "string" && v.trim().startsWith(wrong)) &&
          !(typeof v === "number" && String(v) === wrong)
        );
        if (kept.length === asList(holder[key]).length) continue;
        if (kept.length) holder[key] = kept.length === 1 ? kept[0] : kept;
        else delete holder[key];
        changed = true;
      } else if (renamed && renamed[1] === key) {
        const to = renamed[2];
        holder[to] = holder[to] === undefined
          ? holder[key]
          : [...asList(holder[to]), ...asList(holder[key])];
        delete holder[key];
        changed = true;
      }
    }
    // Unchanged: the findings still describe the graph.
    if (!changed) return findings;
  }
  return null;
}

/** The object at a path of steps ("offers[1]", "address") below a node, or null. */
function objectAt(node: JsonObject, steps: string[]): JsonObject | null {
  let at: JsonObject = node;
  for (const step of steps) {
    const m = /^(.*?)(?:\[(\d+)\])?$/.exec(step)!;
    const v = asList(at[m[1]])[Number(m[2] ?? 0)];
    if (!isObject(v)) return null;
    at = v;
  }
  return at;
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

/** Our validator's findings on a graph, each with the index of the node it is about. */
type GraphFindings = { index: number; finding: Finding }[];

/** Our validator's findings on the graph, with the index of the node each is about. */
function graphFindings(graph: JsonObject[]): GraphFindings {
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
  return findings.filter((f) => f.itemIndex !== null).map((f) => ({
    index: f.itemIndex!,
    finding: f,
  }));
}

/** The nodes (by @id) that still have an error finding, with its paths. */
function brokenNodes(
  graph: JsonObject[],
  nodes: Generated["nodes"],
  findings: GraphFindings = graphFindings(graph),
): Map<string, string[]> {
  const keptIds = new Set(nodes.map((x) => x.id));
  const broken = new Map<string, string[]>();
  for (const { index, finding: f } of findings) {
    const id = graph[index]?.["@id"] as string | undefined;
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
