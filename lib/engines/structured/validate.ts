/**
 * Validation of detected items: every node (items and the nodes embedded in them) against the
 * schema.org vocabulary, then against Google's rich-result rules (google/registry.ts: one module per feature).
 *
 * Severity, decided once:
 * - unknown type: error (the node means nothing to a consumer);
 * - unknown property, or a property used on a type it does not belong to: warning (consumers
 *   ignore it; when the typo hides a property Google requires, the Google rule reports that as
 *   the error), with a "did you mean" hint when a known term is close;
 * - superseded terms and values of the wrong kind (a date that is not ISO 8601, an enumeration
 *   value that does not exist, an object of an unexpected type): warning;
 * - Google: missing required -> error, missing recommended -> warning; an invalid value of a
 *   property several features read (an offer's price) is one finding, counted for each feature.
 */
import {
  deprecationsFor,
  featureOfNote,
  featuresOf,
  googleFeature,
  googleIssues,
} from "./google/registry.ts";
import type { RuleNode } from "./google/rule_kit.ts";
import { allItems, type Detected } from "./extract.ts";
import type { Deprecation, DetectedItem, Eligibility, Finding, Source } from "./record.ts";
import {
  asList,
  isObject,
  isReference,
  isSchemaTerm,
  type JsonObject,
  step,
  typesOf,
} from "./terms.ts";
import { displayType, type Visit, vocabularyChecks } from "./validate_vocabulary.ts";
import { FindingLog } from "./finding_log.ts";

export { displayType } from "./validate_vocabulary.ts";

const MAX_NODES = 5000;
/** Deprecation notes listed (one per node is possible: a page of 5,000 retired nodes). */
export const MAX_DEPRECATIONS = 100;

/** Findings and deprecation notes for a page's items. */
export interface Validation {
  /** Grouped per kind and bounded (lib/engines/structured/finding_log.ts). */
  findings: Finding[];
  /** The first {@link MAX_DEPRECATIONS} notes. */
  deprecated: Deprecation[];
  /** How many deprecation notes there are, the ones not listed included. */
  deprecatedTotal: number;
  /** Rich-result eligibility per item and feature. */
  eligibility: Eligibility[];
}

/** Validates every item of every source. */
export function validateItems(detected: Detected, pageUrl?: string | null): Validation {
  const findings = new FindingLog();
  const deprecated: Deprecation[] = [];
  let deprecatedTotal = 0;
  const eligibility: Eligibility[] = [];
  const all = allItems(detected);
  const byId = new Map<string, DetectedItem>();
  for (const item of all) if (item.id && !byId.has(item.id)) byId.set(item.id, item);
  const resolve = (id: string): JsonObject | null => {
    const item = byId.get(id);
    if (!item) return null;
    const data: JsonObject = { ...item.properties, "@id": id };
    if (item.types.length) data["@type"] = item.types.length === 1 ? item.types[0] : item.types;
    return data;
  };
  // Who points at each item (types of the referring nodes and the property), for context rules.
  const referrers = new Map<DetectedItem, { types: string[]; property: string }>();
  for (const item of all) {
    for (const ref of item.refs) {
      const target = ref.target ? listOf(detected, ref.target.source)[ref.target.index] : undefined;
      if (!target || referrers.has(target)) continue;
      const prop = ref.path.split(".").pop()!.replace(/\[\d+\]$/, "");
      const owner = nodeTypesAt(item, ref.path);
      referrers.set(target, { types: owner, property: prop });
    }
  }
  let budget = MAX_NODES;
  // "Did you mean" hints cost a scan of the vocabulary each: a hostile page gets only so many.
  const hints = { left: 200 };
  for (const item of all) {
    const add = (f: Omit<Finding, "source" | "itemIndex">) => {
      findings.add({ ...f, source: item.source, itemIndex: item.index });
    };
    const rootType = displayType(item.types);
    /** Per feature read on this item: its errors and warnings (all findings, not capped). */
    const features = new Map<string, { errors: string[]; warnings: string[] }>();
    const retired: Deprecation[] = [];
    for (const ref of item.refs) {
      if (ref.target) continue;
      add({
        severity: "warning",
        path: `${rootType}.${ref.path}`,
        type: null,
        property: ref.path.split(".").pop()!.replace(/\[\d+\]$/, ""),
        message:
          `"${ref.path}" points to "${ref.id}", which no node on this page declares; add a node with that "@id" or embed the value here.`,
        rule: "schema.org",
      });
    }
    const referrer = referrers.get(item);
    const stack: Visit[] = [{
      data: item.properties,
      types: item.types,
      path: rootType,
      parentTypes: referrer?.types ?? [],
      parentProperty: referrer?.property ?? null,
      root: true,
    }];
    while (stack.length && budget-- > 0) {
      const v = stack.pop()!;
      // A node without a type is an error only where nothing gives it one: a node another item
      // refers to (a breadcrumb's `item` as {"@id", "name"}) takes its type from that property.
      if (v.root && !v.types.length && !referrer) {
        add({
          severity: item.source === "json-ld" ? "error" : "warning",
          path: v.path,
          type: null,
          property: "@type",
          message: item.source === "json-ld"
            ? 'This node has no "@type": add the schema.org type it describes (e.g. "Organization").'
            : "This item has no itemtype/typeof: add the schema.org type it describes.",
          rule: "schema.org",
        });
      }
      vocabularyChecks(v, add, hints);
      const ruleNode: RuleNode = {
        data: v.data,
        types: v.types.filter(isSchemaTerm),
        parentTypes: v.parentTypes,
        parentProperty: v.parentProperty,
        resolve,
        pageUrl,
      };
      for (const name of featuresOf(ruleNode)) {
        if (!features.has(name)) features.set(name, { errors: [], warnings: [] });
      }
      // One fact, one finding: an issue two features report alike is listed once (under the
      // first), and counts against both features' eligibility.
      const reported = new Set<string>();
      for (const issue of googleIssues(ruleNode)) {
        const entry = features.get(issue.feature);
        const line = `${v.path}.${issue.property}: ${issue.message}`;
        if (entry) (issue.severity === "error" ? entry.errors : entry.warnings).push(line);
        const key = `${issue.severity}\u0000${line}`;
        if (reported.has(key)) continue;
        reported.add(key);
        add({
          severity: issue.severity,
          path: `${v.path}.${issue.property}`,
          type: displayType(v.types),
          property: issue.property.split(".").pop()!.replace(/\[\d+\]$/, ""),
          message: issue.message,
          rule: `google:${issue.feature}`,
        });
      }
      for (const d of deprecationsFor(ruleNode)) {
        const note = {
          ...d,
          type: displayType(v.types),
          source: item.source,
          itemIndex: item.index,
        };
        deprecatedTotal++;
        if (deprecated.length < MAX_DEPRECATIONS) deprecated.push(note);
        if (retired.length < MAX_DEPRECATIONS) retired.push(note);
      }
      // Embedded nodes (not references: those are validated as items of their own).
      for (const [key, value] of Object.entries(v.data)) {
        if (key.startsWith("@")) continue;
        const list = asList(value);
        list.forEach((x, i) => {
          if (!isObject(x) || isReference(x) || "@value" in x) return;
          stack.push({
            data: x,
            types: typesOf(x),
            path: step(v.path, key, i, list.length),
            parentTypes: v.types,
            parentProperty: key,
            root: false,
          });
        });
      }
    }
    eligibility.push(...eligibilityOf(item, features, retired));
  }
  return { findings: findings.list(), deprecated, deprecatedTotal, eligibility };
}

/** The Rich Results Test's verdict for each feature read on an item, and for retired ones. */
function eligibilityOf(
  item: DetectedItem,
  features: Map<string, { errors: string[]; warnings: string[] }>,
  retired: Deprecation[],
): Eligibility[] {
  const out: Eligibility[] = [];
  const type = displayType(item.types);
  for (const [feature, { errors, warnings }] of features) {
    out.push({
      source: item.source,
      itemIndex: item.index,
      type,
      feature,
      status: errors.length
        ? "not eligible"
        : warnings.length
        ? "eligible with warnings"
        : "eligible",
      reasons: (errors.length ? errors : warnings).slice(0, 20),
      docs: googleFeature(feature)?.url ?? null,
    });
  }
  for (const d of retired) {
    const f = featureOfNote(d.feature);
    const name = f?.name ?? d.feature;
    out.push({
      source: item.source,
      itemIndex: item.index,
      type: d.type,
      feature: name,
      status: "not eligible",
      reasons: [
        `Google ${
          f?.status === "limited" ? "restricted" : "retired"
        } this rich result in ${d.since}: ${d.message}`,
      ],
      docs: f?.url ?? null,
    });
  }
  return out;
}

function listOf(d: Detected, source: Source): DetectedItem[] {
  return source === "json-ld" ? d.jsonLd : source === "microdata" ? d.microdata : d.rdfa;
}

/** Types of the node that holds the value at `path` inside an item ("review[0].author"). */
function nodeTypesAt(item: DetectedItem, path: string): string[] {
  const steps = path.split(".");
  let node: JsonObject = item.properties;
  let types = item.types;
  for (const s of steps.slice(0, -1)) {
    const m = /^(.*?)(?:\[(\d+)\])?$/.exec(s)!;
    const v = asList(node[m[1]])[Number(m[2] ?? 0)];
    if (!isObject(v)) break;
    node = v;
    types = typesOf(v);
  }
  return types;
}
