/**
 * The building blocks of Google's rich-result rules: what a rule sees of a node, the issues it
 * reports, the value forms a property may accept (dates, durations, prices, ISO 4217 currencies,
 * URLs, enumeration members) and the rule builders (required, recommended, oneOf, each,
 * namedEntity) the feature modules (features/*.ts) use.
 */
import currencyCodes from "currency-codes";
import { enumerationsOf } from "../vocabulary.ts";
import {
  asList,
  isObject,
  isReference,
  type JsonObject,
  type JsonValue,
  shortTerm,
  typesOf,
} from "../terms.ts";

/** What a rule sees of one node. */
export interface RuleNode {
  data: JsonObject;
  types: string[];
  /** Types of the node that embeds or references this one (empty for a stand-alone item). */
  parentTypes: string[];
  /** The property of the parent this node is the value of, or null. */
  parentProperty: string | null;
  /** Follows a `{"@id"}` reference to the node the page declares, or null. */
  resolve(id: string): JsonObject | null;
  /** The page's URL, when known (site-name rules apply only on the home page). */
  pageUrl?: string | null;
}

/** One problem a rule found; `property` is relative to the node ("offers.price"). */
export interface RuleIssue {
  severity: "error" | "warning";
  property: string;
  message: string;
  feature: string;
}

/** A deprecated or restricted rich result that a node uses. */
export interface DeprecationNote {
  feature: string;
  since: string;
  message: string;
}

/** One rule: reads a node, appends what it finds. */
export type Check = (n: RuleNode, out: RuleIssue[]) => void;

/** The values at a dotted path below a node, following references and lists. */
export function valuesAt(n: RuleNode, path: string): JsonValue[] {
  let current: JsonValue[] = [n.data];
  for (const key of path.split(".")) {
    const next: JsonValue[] = [];
    for (const v of current) {
      const obj = isReference(v) ? n.resolve(v["@id"]) : isObject(v) ? v : null;
      if (!obj) continue;
      for (const x of asList(obj[key])) if (x !== "" && x !== null) next.push(x);
    }
    current = next;
  }
  return current;
}

/** Follows a value to its node object (through a reference), or null for a literal. */
export function nodeOf(n: RuleNode, v: JsonValue): JsonObject | null {
  return isReference(v) ? n.resolve(v["@id"]) : isObject(v) ? v : null;
}

// ---------------------------------------------------------------------------------------------
// Value kinds

const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const ISO_DURATION =
  /^P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/;

/** Google's ratingValue forms: a number, a percentage or a fraction ("4", "60%", "6 / 10"). */
const RATING = /^-?\d+(?:\.\d+)?(?:\s*%|\s*\/\s*\d+(?:\.\d+)?)?$/;

/**
 * An ISO 8601 date or date-time naming a real calendar day and time ("2025-02-30" and
 * "2024-05-01T25:00" are not).
 */
export function isCalendarDate(value: string): boolean {
  const t = value.trim();
  if (!ISO_DATE.test(t)) return false;
  const [y, m, d] = t.slice(0, 10).split("-").map(Number);
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ][m - 1];
  if (d > days) return false;
  const time = /[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(t.slice(10));
  if (time && (Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 60)) {
    return false;
  }
  const zone = /([+-])(\d{2}):?(\d{2})$/.exec(t.length > 10 ? t.slice(10) : "");
  return !zone || (Number(zone[2]) <= 14 && Number(zone[3]) <= 59);
}

/** The kinds of value a property may need. */
export type Kind =
  | "text"
  | "number"
  | "rating"
  | "date"
  | "duration"
  | "url"
  | "currency"
  | "availability"
  | "itemCondition"
  | "node";

/** How each kind of value is described in a message. */
export const KIND_HINT: Record<Kind, string> = {
  text: "a text value",
  number: 'a plain number with a "." decimal separator and no currency symbol, e.g. "19.99"',
  rating: 'a number, a percentage or a fraction, e.g. "4", "60%" or "6 / 10"',
  date: 'an ISO 8601 date or date-time, e.g. "2024-05-01" or "2024-05-01T09:00:00+02:00"',
  duration: 'an ISO 8601 duration, e.g. "PT1H30M"',
  url: "an absolute URL",
  currency: 'a three-letter ISO 4217 currency code, e.g. "EUR" or "USD"',
  availability: 'a schema.org ItemAvailability value, e.g. "https://schema.org/InStock"',
  itemCondition: 'a schema.org OfferItemCondition value, e.g. "https://schema.org/NewCondition"',
  node: "an object with its own properties",
};

/** Whether a value is of a kind. */
export function fits(kind: Kind, v: JsonValue, n: RuleNode): boolean {
  switch (kind) {
    case "text":
      return typeof v === "string" || typeof v === "number";
    case "number":
      return typeof v === "number" || (typeof v === "string" && /^-?\d+(?:\.\d+)?$/.test(v.trim()));
    case "rating":
      return typeof v === "number" ||
        (typeof v === "string" && RATING.test(v.trim()));
    case "date":
      return typeof v === "string" && isCalendarDate(v);
    case "duration":
      return typeof v === "string" && ISO_DURATION.test(v.trim());
    case "url":
      return typeof v === "string" ? isUrlLike(v) : !!nodeOf(n, v);
    case "currency":
      return typeof v === "string" && isCurrencyCode(v);
    case "availability":
      return typeof v === "string" &&
        enumerationsOf(shortTerm(v.trim())).includes("ItemAvailability");
    case "itemCondition":
      return typeof v === "string" &&
        enumerationsOf(shortTerm(v.trim())).includes("OfferItemCondition");
    case "node":
      return !!nodeOf(n, v);
  }
}

// ---------------------------------------------------------------------------------------------
// Rule builders

function presence(
  severity: "error" | "warning",
  property: string,
  how: string,
  kind?: Kind,
): Check {
  return (n, out) => {
    const values = valuesAt(n, property);
    const feature = "";
    if (!values.length) {
      out.push({
        severity,
        property,
        feature,
        message: `${
          severity === "error" ? "Required" : "Recommended"
        }: add "${property}" (${how}).`,
      });
      return;
    }
    if (kind && !values.every((v) => fits(kind, v, n))) {
      out.push({
        severity,
        property,
        feature,
        message: `"${property}" should be ${KIND_HINT[kind]}; found ${
          preview(values.find((v) => !fits(kind, v, n))!)
        }.`,
      });
    }
  };
}

/** A property the feature needs (an error when missing or of the wrong kind). */
export const required = (p: string, how: string, kind?: Kind) => presence("error", p, how, kind);
/** A property the feature should have (a warning when missing or of the wrong kind). */
export const recommended = (p: string, how: string, kind?: Kind) =>
  presence("warning", p, how, kind);

/** One of several properties must be there (error) or should be (warning). */
export function oneOf(severity: "error" | "warning", props: string[], how: string): Check {
  return (n, out) => {
    if (props.some((p) => valuesAt(n, p).length)) return;
    out.push({
      severity,
      property: props[0],
      feature: "",
      message: `${severity === "error" ? "Required" : "Recommended"}: add one of ${
        props.map((p) => `"${p}"`).join(", ")
      } (${how}).`,
    });
  };
}

/** Applies checks to each node found at `property` (e.g. every author). */
export function each(
  property: string,
  checks: Check[],
  when?: (node: JsonObject) => boolean,
): Check {
  return (n, out) => {
    for (const v of asList(n.data[property])) {
      const node = nodeOf(n, v);
      if (!node || (when && !when(node))) continue;
      const inner: RuleNode = {
        ...n,
        data: node,
        types: typesOf(node),
        parentTypes: n.types,
        parentProperty: property,
      };
      const found: RuleIssue[] = [];
      for (const c of checks) c(inner, found);
      for (const f of found) out.push({ ...f, property: `${property}.${f.property}` });
    }
  };
}

/** A person or organization value must be an object with a name, not a bare string. */
export function namedEntity(property: string, severity: "error" | "warning"): Check {
  return (n, out) => {
    for (const v of asList(n.data[property])) {
      if (typeof v === "string") {
        out.push({
          severity: "warning",
          property,
          feature: "",
          message:
            `Make "${property}" a Person or Organization object, e.g. {"@type": "Person", "name": "${
              v.slice(0, 40)
            }", "url": "..."}, rather than a bare text.`,
        });
        continue;
      }
      const node = nodeOf(n, v);
      if (node && !asList(node.name).length) {
        out.push({
          severity,
          property: `${property}.name`,
          feature: "",
          message: `Add the ${property}'s "name" (only the name, no job title or "posted by").`,
        });
      }
    }
  };
}

/**
 * A currency code of ISO 4217's list one ("USD", "EUR"; not "dollars", not "usd", not "XYZ"), as
 * npm:currency-codes ships it (list published 2024-06-25; https://www.iso.org/iso-4217-currency-codes.html).
 */
export function isCurrencyCode(v: string): boolean {
  const t = v.trim();
  return /^[A-Z]{3}$/.test(t) && currencyCodes.code(t) !== undefined;
}

/** An absolute http(s) URL or a relative reference (no spaces, no data: URL). */
export function isUrlLike(v: string): boolean {
  const t = v.trim();
  if (!t || /\s/.test(t) || /^(data|javascript):/i.test(t)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(t)) return /^https?:\/\/[^/]/i.test(t);
  try {
    new URL(t, "https://example.com/");
    return true;
  } catch {
    return false;
  }
}

/** A value as quoted in a message (at most 60 characters). */
export function preview(v: JsonValue): string {
  const s = typeof v === "string" ? `"${v}"` : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** The longest author name Google reads as a name (review snippet page, checked 2026-12-06). */
export const MAX_AUTHOR_NAME = 100;

/** Words that introduce a byline: Google's author.name holds "only the name of the author". */
const INTRODUCTION =
  /^(?:by|posted by|written by|words by|von|par|por|door|av|autor:?|author:?)\s/i;

/**
 * What Google says an author's name is (https://developers.google.com/search/docs/appearance/
 * structured-data/article "Author markup best practices", and .../review-snippet "author",
 * both read 2026-12-06): only the name, without introductory words such as "posted by"; one
 * author per entry, not "Willow Lane, Regula Felix" in one name; and a reviewer's name "must be
 * shorter than 100 characters" (past that, no author-based review snippet). A name over
 * {@link MAX_AUTHOR_NAME} characters is `tooLong` (an error where the feature needs a name), the
 * others are warnings. `people` splits a byline into its people (lib/engines/structured/bylines.ts).
 */
export function authorNames(
  property: string,
  tooLong: "error" | "warning",
  people: (name: string) => string[],
): Check {
  return (n, out) => {
    for (const v of asList(n.data[property])) {
      const node = nodeOf(n, v);
      const names = typeof v === "string" ? [v] : node ? asList(node.name) : [];
      for (const raw of names) {
        if (typeof raw !== "string") continue;
        const name = raw.trim();
        const at = typeof v === "string" ? property : `${property}.name`;
        if (name.length > MAX_AUTHOR_NAME) {
          out.push({
            severity: tooLong,
            property: at,
            feature: "",
            message:
              `The ${property}'s name is ${name.length} characters long: Google reads a name over ${MAX_AUTHOR_NAME} characters as no name at all. Put only the person's or organization's name here.`,
          });
        } else if (INTRODUCTION.test(name)) {
          out.push({
            severity: "warning",
            property: at,
            feature: "",
            message: `Put only the name in the ${property}'s name, without "${
              INTRODUCTION.exec(name)![0].trim()
            }" (found ${preview(name)}).`,
          });
        } else if (people(name).length > 1) {
          out.push({
            severity: "warning",
            property: at,
            feature: "",
            message: `${preview(name)} names ${
              people(name).length
            } people: give each author an entry of its own ("${property}": [{"name": ...}, {"name": ...}]).`,
          });
        }
      }
    }
  };
}
