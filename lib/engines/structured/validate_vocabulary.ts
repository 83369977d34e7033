/**
 * The vocabulary half of validate.ts: a node's types, properties and values checked against the
 * schema.org vocabulary (unknown or superseded terms, properties on the wrong type, values of the
 * wrong kind), with "did you mean" hints.
 */
import { isUrlLike } from "./google/rule_kit.ts";
import type { Finding } from "./record.ts";
import {
  asList,
  isObject,
  isReference,
  isSchemaTerm,
  type JsonObject,
  type JsonValue,
  shortTerm,
  typesOf,
} from "./terms.ts";
import {
  closestTerm,
  enumerationsOf,
  isA,
  isDataType,
  isEnumeration,
  propertyAllowedOn,
  propertyInfo,
  typeInfo,
} from "./vocabulary.ts";

/** The name a path starts with: the item's first schema.org type. */
export function displayType(types: string[]): string {
  return types.find(isSchemaTerm) ?? types[0] ?? "Thing";
}

/** One node as the validator visits it. */
export interface Visit {
  data: JsonObject;
  types: string[];
  path: string;
  parentTypes: string[];
  parentProperty: string | null;
  root: boolean;
}

/** Reports one finding of the node being visited. */
export type Add = (f: Omit<Finding, "source" | "itemIndex">) => void;

/** Types, properties and cheap value checks against the vocabulary. */
export function vocabularyChecks(v: Visit, add: Add, hints: { left: number }): void {
  const hint = (term: string, kind: "type" | "property") =>
    hints.left-- > 0 ? closestTerm(term, kind) : null;
  const known: string[] = [];
  for (const t of v.types) {
    if (!isSchemaTerm(t)) {
      add({
        severity: "warning",
        path: v.path,
        type: t,
        property: "@type",
        message: /data-vocabulary\.org/i.test(t)
          ? `data-vocabulary.org was retired in 2020 and is ignored; use the schema.org type instead (e.g. https://schema.org/BreadcrumbList).`
          : `"${t}" is not a schema.org type; search engines reading schema.org ignore it.`,
        rule: "schema.org",
      });
      continue;
    }
    const info = typeInfo(t);
    if (!info) {
      const suggestion = hint(t, "type");
      add({
        severity: "error",
        path: v.path,
        type: t,
        property: "@type",
        message: `"${t}" is not a schema.org type${
          suggestion
            ? `; did you mean "${suggestion}"?`
            : "; see https://schema.org/docs/full.html for the types there are."
        }`,
        rule: "schema.org",
      });
      continue;
    }
    known.push(t);
    if (info.supersededBy) {
      add({
        severity: "warning",
        path: v.path,
        type: t,
        property: "@type",
        message: `schema.org replaced "${t}" with "${info.supersededBy}"; use that instead.`,
        rule: "schema.org",
      });
    }
  }
  for (const [rawKey, value] of Object.entries(v.data)) {
    if (rawKey.startsWith("@")) continue;
    // Action constraints ("query-input", "target-output") are schema.org's, written this way.
    const key = shortTerm(rawKey).replace(/-(input|output)$/, "");
    if (!isSchemaTerm(key)) continue;
    const path = `${v.path}.${key}`;
    const type = displayType(v.types);
    const info = propertyInfo(key);
    if (!info) {
      const suggestion = hint(key, "property");
      add({
        severity: "warning",
        path,
        type,
        property: key,
        message: `"${key}" is not a schema.org property, so it is ignored${
          suggestion
            ? `; did you mean "${suggestion}"?`
            : "; remove it or use a schema.org property."
        }`,
        rule: "schema.org",
      });
      continue;
    }
    if (known.length && !propertyAllowedOn(info, known)) {
      add({
        severity: "warning",
        path,
        type,
        property: key,
        message: `"${key}" is not a property of ${known.join("/")} (schema.org defines it on ${
          info.domains.slice(0, 4).join(", ")
        }${info.domains.length > 4 ? ", ..." : ""}); move it to a node of that type or remove it.`,
        rule: "schema.org",
      });
    }
    if (info.supersededBy) {
      add({
        severity: "warning",
        path,
        type,
        property: key,
        message: `schema.org replaced "${key}" with "${info.supersededBy}"; rename it.`,
        rule: "schema.org",
      });
    }
    const problem = asList(value).map((x) => valueProblem(x, info.ranges)).find(Boolean);
    if (problem) {
      add({
        severity: "warning",
        path,
        type,
        property: key,
        message: `"${key}" ${problem}`,
        rule: "schema.org",
      });
    }
  }
}

/** What is wrong with a value given the property's expected types, or null. */
function valueProblem(value: JsonValue, ranges: string[]): string | null {
  if (!ranges.length || value === null) return null;
  if (isReference(value)) return null;
  if (isObject(value)) {
    const types = typesOf(value).filter(isSchemaTerm).filter((t) => typeInfo(t));
    if (!types.length) return null;
    if (types.some((t) => ranges.some((r) => isA(t, r)))) return null;
    return `expects ${ranges.join(" or ")}, not ${types.join("/")}.`;
  }
  const text = String(value).trim();
  const dataRanges = ranges.filter(isDataType);
  const enums = ranges.filter(isEnumeration);
  if (ranges.some((r) => r === "Text" || isA(r, "Text") && r !== "URL")) return null;
  if (enums.length && enumerationsOf(shortTerm(text)).some((e) => enums.some((r) => isA(e, r)))) {
    return null;
  }
  if (ranges.includes("URL") && isUrlLike(text)) return null;
  if (dataRanges.some((r) => isA(r, "Number")) && /^-?\d+(?:\.\d+)?$/.test(text)) return null;
  if (
    dataRanges.some((r) => r === "Date" || r === "DateTime") && /^\d{4}-\d{2}-\d{2}/.test(text) &&
    !Number.isNaN(Date.parse(text))
  ) return null;
  if (dataRanges.includes("Time") && /^\d{2}:\d{2}/.test(text)) return null;
  if (
    dataRanges.includes("Boolean") &&
    /^(true|false|(https?:\/\/schema\.org\/)?(True|False))$/i.test(text)
  ) return null;
  // Schema.org lets text stand in for an entity (a Person's name as "author"): fine.
  if (ranges.some((r) => !isDataType(r) && !isEnumeration(r))) return null;
  if (enums.length) {
    return `expects one of the ${enums.join("/")} values (e.g. "https://schema.org/${
      firstMember(enums[0])
    }"), found "${text.slice(0, 60)}".`;
  }
  return `expects ${dataRanges.join(" or ")}, found "${text.slice(0, 60)}"${
    dataRanges.some((r) => r === "Date" || r === "DateTime")
      ? ' (use ISO 8601, e.g. "2024-05-01")'
      : ""
  }.`;
}

const FIRST_MEMBER: Record<string, string> = {
  ItemAvailability: "InStock",
  EventStatusType: "EventScheduled",
  EventAttendanceModeEnumeration: "OfflineEventAttendanceMode",
  OfferItemCondition: "NewCondition",
  DayOfWeek: "Monday",
};

function firstMember(enumeration: string): string {
  return FIRST_MEMBER[enumeration] ?? enumeration;
}
