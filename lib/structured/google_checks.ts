/**
 * Google's rules that are more than "this property is there and of this kind" (rating ranges,
 * breadcrumb entries, event locations, postal addresses, offers), and the predicates the feature
 * tables use to say where a feature applies (stand-alone, top-level, list entry, home page).
 */
import { anyIsA } from "./vocabulary.ts";
import { asList, isReference, type JsonObject, typesOf } from "./terms.ts";
import {
  type Check,
  fits,
  KIND_HINT,
  nodeOf,
  oneOf,
  preview,
  recommended,
  required,
  type RuleIssue,
  type RuleNode,
  valuesAt,
} from "./google_rule_kit.ts";

/** ratingValue within worstRating..bestRating (1..5 when not stated). */
export const ratingRange: Check = (n, out) => {
  // Percentages and fractions carry their own scale.
  const value = Number(String(asList(n.data.ratingValue)[0] ?? "").trim());
  if (!Number.isFinite(value)) return;
  const best = Number(asList(n.data.bestRating)[0] ?? 5);
  const worst = Number(asList(n.data.worstRating)[0] ?? 1);
  if (value > best || value < worst) {
    out.push({
      severity: "error",
      property: "ratingValue",
      feature: "",
      message:
        `ratingValue ${value} is outside ${worst}-${best}; set "bestRating" and "worstRating" to the scale you use.`,
    });
  }
};

export const isStandalone = (n: RuleNode) => n.parentTypes.length === 0;

export const itemReviewed: Check = (n, out) => {
  if (!isStandalone(n)) return;
  required("itemReviewed", "the thing rated, with its name", "node")(n, out);
  if (valuesAt(n, "itemReviewed").length) {
    required("itemReviewed.name", "the name of the thing rated")(n, out);
  }
};

/** BreadcrumbList entries: position and name everywhere, an item URL on all but the last. */
export const breadcrumbEntries: Check = (n, out) => {
  const entries = asList(n.data.itemListElement).map((v) => nodeOf(n, v)).filter((
    x,
  ): x is JsonObject => !!x);
  if (entries.length === 1) {
    out.push({
      severity: "warning",
      property: "itemListElement",
      feature: "",
      message: "A breadcrumb trail needs at least two ListItems (e.g. Home > this page).",
    });
  }
  const positions = entries.map((e) => Number(asList(e.position)[0]));
  const last = Math.max(...positions.filter(Number.isFinite));
  entries.forEach((e, i) => {
    const at = entries.length > 1 ? `itemListElement[${i}]` : "itemListElement";
    const pos = asList(e.position)[0];
    if (pos === undefined || !/^\d+$/.test(String(pos))) {
      out.push({
        severity: "error",
        property: `${at}.position`,
        feature: "",
        message: 'Add "position": the entry\'s place in the trail, 1 for the first.',
      });
    }
    const item = asList(e.item)[0];
    const itemNode = item !== undefined && typeof item !== "string" ? nodeOf(n, item) : null;
    const name = asList(e.name)[0] ?? (itemNode ? asList(itemNode.name)[0] : undefined);
    if (name === undefined) {
      out.push({
        severity: "error",
        property: `${at}.name`,
        feature: "",
        message: 'Add "name": the entry\'s title as shown in the trail.',
      });
    }
    const url = typeof item === "string"
      ? item
      : isReference(item)
      ? item["@id"]
      : itemNode?.["@id"] ?? itemNode?.url;
    if (url === undefined && Number(pos) !== last) {
      out.push({
        severity: "error",
        property: `${at}.item`,
        feature: "",
        message:
          'Add "item": the URL of the page this entry links to (only the last entry may omit it).',
      });
    } else if (typeof url === "string" && !/^https?:\/\//i.test(url)) {
      out.push({
        severity: "warning",
        property: `${at}.item`,
        feature: "",
        message: `Use an absolute URL for "item" (found "${url.slice(0, 80)}").`,
      });
    }
  });
};

export const dateOrder: Check = (n, out) => {
  const start = Date.parse(String(asList(n.data.startDate)[0] ?? ""));
  const end = Date.parse(String(asList(n.data.endDate)[0] ?? ""));
  if (Number.isFinite(start) && Number.isFinite(end) && end < start) {
    out.push({
      severity: "warning",
      property: "endDate",
      feature: "",
      message: "endDate is before startDate; check both dates and their time zones.",
    });
  }
};

export const eventLocation: Check = (n, out) => {
  for (const v of asList(n.data.location)) {
    if (typeof v === "string") {
      out.push({
        severity: "error",
        property: "location",
        feature: "",
        message:
          'Make "location" a Place with a name and an "address" (a PostalAddress), or a VirtualLocation with a "url".',
      });
      continue;
    }
    const node = nodeOf(n, v);
    if (!node) continue;
    const types = typesOf(node);
    if (anyIsA(types, "VirtualLocation")) {
      if (!asList(node.url).length) {
        out.push({
          severity: "error",
          property: "location.url",
          feature: "",
          message: 'Add the VirtualLocation\'s "url" (where people join the event online).',
        });
      }
    } else if (!asList(node.address).length) {
      out.push({
        severity: "error",
        property: "location.address",
        feature: "",
        message:
          'Add the Place\'s "address" (a PostalAddress with streetAddress, addressLocality, postalCode, addressCountry).',
      });
    }
  }
};

export const postalAddress: Check = (n, out) => {
  for (const v of asList(n.data.address)) {
    if (typeof v === "string") {
      out.push({
        severity: "warning",
        property: "address",
        feature: "",
        message:
          'Make "address" a PostalAddress with streetAddress, addressLocality, postalCode and addressCountry rather than one text.',
      });
      continue;
    }
    const inner: RuleNode = {
      ...n,
      data: nodeOf(n, v) ?? {},
      types: ["PostalAddress"],
      parentTypes: n.types,
      parentProperty: "address",
    };
    const found: RuleIssue[] = [];
    for (const p of ["streetAddress", "addressLocality", "postalCode", "addressCountry"]) {
      recommended(p, `part of the postal address`)(inner, found);
    }
    for (const f of found) out.push({ ...f, property: `address.${f.property}` });
  }
};

export const isProductParent = (n: RuleNode) => anyIsA(n.parentTypes, "Product");

export const offerChecks: Check[] = [
  oneOf("error", ["price", "priceSpecification.price"], "the price, as a number"),
  (n, out) => {
    for (const p of ["price", "priceSpecification.price"]) {
      const bad = valuesAt(n, p).find((v) => !fits("number", v, n));
      if (bad !== undefined) {
        out.push({
          severity: "error",
          property: p,
          feature: "",
          message: `"${p}" should be ${KIND_HINT.number}; found ${preview(bad)}.`,
        });
      }
    }
  },
  oneOf("warning", ["priceCurrency", "priceSpecification.priceCurrency"], KIND_HINT.currency),
  (n, out) => {
    const bad = [
      ...valuesAt(n, "priceCurrency"),
      ...valuesAt(n, "priceSpecification.priceCurrency"),
    ].find((v) => !fits("currency", v, n));
    if (bad !== undefined) {
      out.push({
        severity: "warning",
        property: "priceCurrency",
        feature: "",
        message: `"priceCurrency" should be ${KIND_HINT.currency}; found ${preview(bad)}.`,
      });
    }
  },
  recommended("availability", "whether it is in stock", "availability"),
  recommended(
    "priceValidUntil",
    "the date after which the price no longer applies, if it ends",
    "date",
  ),
];

/** A node Google reads as an item of its own: stand-alone, or the main entity of a page or list. */
export const isTopLevel = (n: RuleNode) =>
  isStandalone(n) ||
  ["mainEntity", "about", "mainEntityOfPage", "hasPart"].includes(n.parentProperty ?? "");

/** A node that is an entry of a list (a carousel's entries follow the carousel's own rules). */
export const isListEntry = (n: RuleNode) =>
  ["itemListElement", "item"].includes(n.parentProperty ?? "");

/** A Product Google reads for product results (not a ProductGroup, not an offered item). */
export const isProductItem = (n: RuleNode) =>
  anyIsA(n.types, "Product") && !anyIsA(n.types, "ProductGroup") &&
  (isTopLevel(n) || n.parentProperty === "hasVariant");

export const hasOffers = (n: RuleNode) => valuesAt(n, "offers").length > 0;

/** Whether the page is a site's home page (site-name markup belongs there). */
export function isHomePage(pageUrl: string | null | undefined): boolean {
  if (!pageUrl) return false;
  try {
    const u = new URL(pageUrl);
    return /^\/(?:index\.(?:html?|php|aspx?))?$/i.test(u.pathname) && !u.search;
  } catch {
    return false;
  }
}

export const withoutTypes = (n: RuleNode, ...excluded: string[]) =>
  !excluded.some((t) => anyIsA(n.types, t));
