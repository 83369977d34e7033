/**
 * Google's rich-result requirements (developers.google.com/search/docs/appearance/structured-data)
 * for the features people most often mark up: a missing required property is an error (the
 * page is not eligible), a missing recommended one a warning; an invalid value is an error for a
 * required property and a warning for a recommended one. Messages say what to add, and how.
 *
 * Features: Organization, LocalBusiness, Article (Article/BlogPosting/NewsArticle and other
 * Article subtypes), Product snippets (Product, Offer, AggregateOffer, AggregateRating, Review),
 * BreadcrumbList, WebSite (site names), Event, Recipe, VideoObject. Retired or restricted
 * features (FAQ, HowTo, the sitelinks search box) are {@link deprecationsFor} notes, not errors.
 */
import { googleFeature } from "./google_features.ts";
import { anyIsA, enumerationsOf } from "./vocabulary.ts";
import {
  asList,
  isObject,
  isReference,
  type JsonObject,
  type JsonValue,
  shortTerm,
  typesOf,
} from "./terms.ts";

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

type Check = (n: RuleNode, out: RuleIssue[]) => void;

interface Feature {
  name: string;
  /** Whether the feature's rules apply to this node. */
  applies(n: RuleNode): boolean;
  checks: Check[];
}

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

type Kind =
  | "text"
  | "number"
  | "rating"
  | "date"
  | "duration"
  | "url"
  | "currency"
  | "availability"
  | "node";

const KIND_HINT: Record<Kind, string> = {
  text: "a text value",
  number: 'a plain number with a "." decimal separator and no currency symbol, e.g. "19.99"',
  rating: 'a number, a percentage or a fraction, e.g. "4", "60%" or "6 / 10"',
  date: 'an ISO 8601 date or date-time, e.g. "2024-05-01" or "2024-05-01T09:00:00+02:00"',
  duration: 'an ISO 8601 duration, e.g. "PT1H30M"',
  url: "an absolute URL",
  currency: 'a three-letter ISO 4217 currency code, e.g. "EUR" or "USD"',
  availability: 'a schema.org ItemAvailability value, e.g. "https://schema.org/InStock"',
  node: "an object with its own properties",
};

function fits(kind: Kind, v: JsonValue, n: RuleNode): boolean {
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
      return typeof v === "string" && /^[A-Z]{3}$/.test(v.trim());
    case "availability":
      return typeof v === "string" &&
        enumerationsOf(shortTerm(v.trim())).includes("ItemAvailability");
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

const required = (p: string, how: string, kind?: Kind) => presence("error", p, how, kind);
const recommended = (p: string, how: string, kind?: Kind) => presence("warning", p, how, kind);

/** One of several properties must be there (error) or should be (warning). */
function oneOf(severity: "error" | "warning", props: string[], how: string): Check {
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
function each(property: string, checks: Check[], when?: (node: JsonObject) => boolean): Check {
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
function namedEntity(property: string, severity: "error" | "warning"): Check {
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

/** ratingValue within worstRating..bestRating (1..5 when not stated). */
const ratingRange: Check = (n, out) => {
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

const isStandalone = (n: RuleNode) => n.parentTypes.length === 0;

const itemReviewed: Check = (n, out) => {
  if (!isStandalone(n)) return;
  required("itemReviewed", "the thing rated, with its name", "node")(n, out);
  if (valuesAt(n, "itemReviewed").length) {
    required("itemReviewed.name", "the name of the thing rated")(n, out);
  }
};

/** BreadcrumbList entries: position and name everywhere, an item URL on all but the last. */
const breadcrumbEntries: Check = (n, out) => {
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

const dateOrder: Check = (n, out) => {
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

const eventLocation: Check = (n, out) => {
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

const postalAddress: Check = (n, out) => {
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

// ---------------------------------------------------------------------------------------------
// The features

const isProductParent = (n: RuleNode) => anyIsA(n.parentTypes, "Product");

const offerChecks: Check[] = [
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
const isTopLevel = (n: RuleNode) =>
  isStandalone(n) ||
  ["mainEntity", "about", "mainEntityOfPage", "hasPart"].includes(n.parentProperty ?? "");

/** A node that is an entry of a list (a carousel's entries follow the carousel's own rules). */
const isListEntry = (n: RuleNode) => ["itemListElement", "item"].includes(n.parentProperty ?? "");

/** A Product Google reads for product results (not a ProductGroup, not an offered item). */
const isProductItem = (n: RuleNode) =>
  anyIsA(n.types, "Product") && !anyIsA(n.types, "ProductGroup") &&
  (isTopLevel(n) || n.parentProperty === "hasVariant");

const hasOffers = (n: RuleNode) => valuesAt(n, "offers").length > 0;

/** Whether the page is a site's home page (site-name markup belongs there). */
function isHomePage(pageUrl: string | null | undefined): boolean {
  if (!pageUrl) return false;
  try {
    const u = new URL(pageUrl);
    return /^\/(?:index\.(?:html?|php|aspx?))?$/i.test(u.pathname) && !u.search;
  } catch {
    return false;
  }
}

const withoutTypes = (n: RuleNode, ...excluded: string[]) =>
  !excluded.some((t) => anyIsA(n.types, t));

const FEATURES: Feature[] = [
  {
    name: "Local business",
    applies: (n) => anyIsA(n.types, "LocalBusiness") && isTopLevel(n),
    checks: [
      required("name", "the business's name"),
      required("address", "its PostalAddress"),
      postalAddress,
      recommended("telephone", "with country code, e.g. +44 20 7946 0000"),
      recommended("url", "the business's page", "url"),
      recommended("image", "a photo of the business", "url"),
      recommended("openingHoursSpecification", "its opening hours"),
      recommended("geo", "latitude and longitude with at least 5 decimals"),
      recommended("priceRange", 'e.g. "$$" or "10-30 EUR"'),
    ],
  },
  {
    name: "Organization",
    applies: (n) =>
      anyIsA(n.types, "Organization") && !anyIsA(n.types, "LocalBusiness") && isStandalone(n),
    checks: [
      recommended("name", "the organization's name"),
      recommended("url", "its home page", "url"),
      recommended("logo", "an image URL of the logo, at least 112x112 px", "url"),
      recommended(
        "sameAs",
        "URLs of its profiles: Wikipedia, Wikidata, LinkedIn, social networks",
        "url",
      ),
    ],
  },
  {
    name: "Article",
    applies: (n) =>
      anyIsA(n.types, "Article") && isTopLevel(n) &&
      withoutTypes(n, "SocialMediaPosting"),
    checks: [
      recommended("headline", "the article's title", "text"),
      recommended("image", "an image URL, at least 1200 px wide for large previews", "url"),
      recommended("datePublished", "when it was first published", "date"),
      recommended("dateModified", "when it was last changed", "date"),
      recommended("author", "a Person or Organization with name and url"),
      namedEntity("author", "warning"),
    ],
  },
  {
    name: "Product snippets",
    applies: isProductItem,
    checks: [
      required("name", "the product's name"),
      oneOf(
        "error",
        ["offers", "review", "aggregateRating"],
        "a product snippet needs its offer, a review or its rating",
      ),
      recommended("image", "a product image URL", "url"),
      recommended("offers", "its price and availability (an Offer)"),
      recommended("aggregateRating", "its average rating, if customers rate it"),
      recommended("review", "a review of it, if there is one"),
    ],
  },
  {
    name: "Merchant listing",
    applies: (n) => isProductItem(n) && hasOffers(n),
    checks: [
      required("name", "the product's name"),
      required("image", "a product image URL", "url"),
      each("offers", [
        oneOf("error", ["priceCurrency", "priceSpecification.priceCurrency"], KIND_HINT.currency),
      ], (o) => !typesOf(o).includes("AggregateOffer")),
      recommended("brand", "the brand, a Brand with its name"),
      oneOf(
        "warning",
        ["gtin", "gtin8", "gtin12", "gtin13", "gtin14", "mpn", "sku"],
        "an identifier",
      ),
      recommended("description", "what the product is"),
    ],
  },
  {
    name: "Product snippets",
    applies: (n) => anyIsA(n.types, "AggregateOffer") && isProductParent(n),
    checks: [
      required("lowPrice", "the lowest of the offers' prices, as a number", "number"),
      required("priceCurrency", KIND_HINT.currency, "currency"),
      recommended("highPrice", "the highest price, as a number", "number"),
      recommended("offerCount", "how many offers there are", "number"),
    ],
  },
  {
    name: "Product snippets",
    applies: (n) =>
      anyIsA(n.types, "Offer") && !anyIsA(n.types, "AggregateOffer") && isProductParent(n),
    checks: offerChecks,
  },
  {
    name: "Product variants",
    applies: (n) => anyIsA(n.types, "ProductGroup") && isTopLevel(n),
    checks: [
      required("name", "the product group's name"),
      required("hasVariant", "the variants, each a Product with its offer"),
      recommended("productGroupID", "the group's own identifier (the parent SKU)"),
      recommended("variesBy", 'what the variants differ in, e.g. "https://schema.org/size"'),
    ],
  },
  {
    name: "Review snippet",
    applies: (n) =>
      anyIsA(n.types, "AggregateRating") && withoutTypes(n, "EmployerAggregateRating"),
    checks: [
      required("ratingValue", "the average rating", "rating"),
      oneOf(
        "error",
        ["ratingCount", "reviewCount"],
        "how many ratings or reviews the average is based on",
      ),
      ratingRange,
      itemReviewed,
    ],
  },
  {
    name: "Review snippet",
    applies: (n) => anyIsA(n.types, "Review") && withoutTypes(n, "ClaimReview"),
    checks: [
      required("author", "who wrote the review: a Person or Organization with a name"),
      namedEntity("author", "error"),
      required("reviewRating", "the rating given, a Rating with ratingValue", "node"),
      each("reviewRating", [required("ratingValue", "the rating given", "rating"), ratingRange]),
      recommended("datePublished", "when the review was published", "date"),
      itemReviewed,
    ],
  },
  {
    name: "Employer aggregate rating",
    applies: (n) => anyIsA(n.types, "EmployerAggregateRating"),
    checks: [
      required("itemReviewed", "the employer rated, an Organization with its name", "node"),
      required("ratingValue", "the average rating", "rating"),
      oneOf("error", ["ratingCount", "reviewCount"], "how many ratings the average is based on"),
      ratingRange,
    ],
  },
  {
    name: "Breadcrumb",
    applies: (n) => anyIsA(n.types, "BreadcrumbList"),
    checks: [required("itemListElement", "the trail's ListItems"), breadcrumbEntries],
  },
  {
    name: "Site name",
    applies: (n) => n.types.includes("WebSite") && isStandalone(n) && isHomePage(n.pageUrl),
    checks: [
      required("name", "the site's name as you want it shown in results"),
      required("url", "the home page URL", "url"),
    ],
  },
  {
    name: "Event",
    // Comment markup (UserComments) and publication events are Events only in schema.org's tree.
    applies: (n) =>
      anyIsA(n.types, "Event") && isTopLevel(n) &&
      withoutTypes(n, "UserComments", "PublicationEvent"),
    checks: [
      required("name", "the event's name"),
      required("startDate", "when it starts", "date"),
      required("location", "a Place with address, or a VirtualLocation with url"),
      eventLocation,
      dateOrder,
      recommended("endDate", "when it ends", "date"),
      recommended("description", "what the event is"),
      recommended("image", "an image URL", "url"),
      recommended("eventStatus", 'e.g. "https://schema.org/EventScheduled"'),
      recommended("eventAttendanceMode", 'e.g. "https://schema.org/OfflineEventAttendanceMode"'),
      recommended("organizer", "who organises it, with name and url"),
      recommended("performer", "who performs, with name"),
      recommended("offers", "ticket price, currency, availability and url"),
      each("offers", [
        recommended("price", "the ticket price, as a number", "number"),
        recommended("priceCurrency", KIND_HINT.currency, "currency"),
        recommended("availability", "whether tickets are available", "availability"),
        recommended("url", "where to buy tickets", "url"),
      ]),
    ],
  },
  {
    name: "Recipe",
    applies: (n) => anyIsA(n.types, "Recipe"),
    checks: [
      required("name", "the dish's name"),
      required("image", "a photo of the finished dish", "url"),
      recommended("author", "who created it, a Person or Organization"),
      recommended("datePublished", "when it was published", "date"),
      recommended("description", "a short summary"),
      recommended("recipeIngredient", "one ingredient per entry"),
      recommended("recipeInstructions", "the steps, as HowToStep entries"),
      recommended("recipeYield", 'servings, e.g. "4"'),
      oneOf("warning", ["totalTime", "cookTime"], KIND_HINT.duration),
      (n, out) => {
        for (const p of ["totalTime", "cookTime", "prepTime"]) {
          const bad = valuesAt(n, p).find((v) => !fits("duration", v, n));
          if (bad !== undefined) {
            out.push({
              severity: "warning",
              property: p,
              feature: "",
              message: `"${p}" should be ${KIND_HINT.duration}; found ${preview(bad)}.`,
            });
          }
        }
      },
      recommended("keywords", "e.g. occasion or season"),
      recommended("recipeCategory", 'e.g. "dessert"'),
      recommended("recipeCuisine", 'e.g. "Italian"'),
      recommended("nutrition.calories", 'e.g. "270 calories"'),
    ],
  },
  {
    name: "Video",
    applies: (n) => anyIsA(n.types, "VideoObject"),
    checks: [
      required("name", "the video's title"),
      required("thumbnailUrl", "an image URL of the thumbnail", "url"),
      required("uploadDate", "when it was first published", "date"),
      recommended("description", "what the video shows"),
      recommended("duration", KIND_HINT.duration, "duration"),
      oneOf("warning", ["contentUrl", "embedUrl"], "the video file's URL or its player's URL"),
    ],
  },
  {
    name: "Job posting",
    applies: (n) => anyIsA(n.types, "JobPosting") && isTopLevel(n),
    checks: [
      required("title", "the job's title only, no codes or salaries"),
      required("description", "the full description, in HTML"),
      required("datePosted", "when it was posted", "date"),
      required("hiringOrganization", "the employer, an Organization with its name", "node"),
      namedEntity("hiringOrganization", "error"),
      (n, out) => {
        const remote = valuesAt(n, "jobLocationType").some((v) => String(v) === "TELECOMMUTE");
        if (remote) {
          required("applicantLocationRequirements", "where applicants may live (a Country)")(
            n,
            out,
          );
        } else {
          required("jobLocation", "a Place with its PostalAddress")(n, out);
        }
      },
      recommended("validThrough", "when the posting expires, if it does", "date"),
      recommended("baseSalary", "the pay, a MonetaryAmount"),
      recommended("employmentType", 'e.g. "FULL_TIME"'),
      recommended("identifier", "the employer's own id of the job"),
    ],
  },
  {
    name: "Software app",
    applies: (n) => anyIsA(n.types, "SoftwareApplication") && isTopLevel(n),
    checks: [
      required("name", "the app's name"),
      required("offers.price", 'its price as a number ("0" when it is free)', "number"),
      oneOf("error", ["aggregateRating", "review"], "its average rating or a review"),
      recommended("applicationCategory", 'e.g. "GameApplication"'),
      recommended("operatingSystem", 'e.g. "Android" or "Windows 10"'),
    ],
  },
  {
    name: "Dataset",
    applies: (n) => anyIsA(n.types, "Dataset") && isTopLevel(n),
    checks: [
      required("name", "the dataset's name"),
      required("description", "a summary of 50 to 5000 characters"),
      recommended("license", "the license's URL", "url"),
      recommended("creator", "who made it, a Person or Organization"),
      recommended("url", "the dataset's page", "url"),
    ],
  },
  {
    name: "Discussion forum",
    applies: (n) =>
      (n.types.includes("DiscussionForumPosting") || n.types.includes("SocialMediaPosting")) &&
      isTopLevel(n),
    checks: [
      required("author", "who posted it, a Person with a name"),
      namedEntity("author", "error"),
      required("datePublished", "when it was posted", "date"),
      oneOf(
        "error",
        ["text", "articleBody", "image", "video", "sharedContent"],
        "the post's text, image or video, or the link it shares",
      ),
      recommended("url", "the post's own URL", "url"),
      recommended("headline", "the thread's title"),
    ],
  },
  {
    name: "Profile page",
    applies: (n) => n.types.includes("ProfilePage") && isStandalone(n),
    checks: [
      required("mainEntity", "the Person or Organization the page is about", "node"),
      each("mainEntity", [required("name", "their name")]),
      recommended("dateCreated", "when the profile was created", "date"),
      recommended("dateModified", "when it was last changed", "date"),
    ],
  },
  {
    name: "Q&A",
    applies: (n) => n.types.includes("QAPage") && isStandalone(n),
    checks: [
      required("mainEntity", "the Question the page is about", "node"),
      each("mainEntity", [
        required("name", "the question's full text"),
        required("answerCount", "how many answers it has", "number"),
        oneOf("error", ["acceptedAnswer", "suggestedAnswer"], "its answers"),
        each("acceptedAnswer", [required("text", "the full answer")]),
        each("suggestedAnswer", [required("text", "the full answer")]),
      ]),
    ],
  },
  {
    name: "Image metadata",
    applies: (n) =>
      anyIsA(n.types, "ImageObject") && isTopLevel(n) &&
      ["license", "acquireLicensePage", "creditText", "copyrightNotice", "creator"].some((p) =>
        valuesAt(n, p).length
      ),
    checks: [
      oneOf("error", ["contentUrl", "url"], "the image file's URL"),
      recommended("license", "the URL of the image's license", "url"),
      recommended("acquireLicensePage", "where to license the image", "url"),
    ],
  },
  {
    name: "Movie carousel",
    applies: (n) => anyIsA(n.types, "Movie") && (isTopLevel(n) || isListEntry(n)),
    checks: [
      required("name", "the film's title"),
      required("image", "a poster or still", "url"),
      recommended("director", "its director, a Person"),
      recommended("dateCreated", "its release date", "date"),
      recommended("aggregateRating", "its average rating"),
    ],
  },
  {
    name: "Vacation rental",
    applies: (n) => anyIsA(n.types, "VacationRental") && isTopLevel(n),
    checks: [
      required("name", "the listing's name"),
      required("identifier", "your own id of the listing"),
      required("image", "photos of the rental (Google asks for at least eight)", "url"),
      required("latitude", "its latitude", "number"),
      required("longitude", "its longitude", "number"),
      required("containsPlace", "the Accommodation with its occupancy", "node"),
      recommended("address", "its PostalAddress"),
      recommended("aggregateRating", "its average rating"),
    ],
  },
  {
    name: "Course list",
    applies: (n) => anyIsA(n.types, "Course") && (isTopLevel(n) || isListEntry(n)),
    checks: [
      required("name", "the course's title"),
      required("description", "what it teaches"),
      recommended("provider", "who offers it, an Organization with its name"),
    ],
  },
  {
    name: "Practice problem",
    applies: (n) => n.types.includes("Quiz") && isTopLevel(n),
    checks: [
      required("hasPart", "the quiz's Questions"),
      recommended("about", "the concept it practises"),
      recommended("educationalAlignment", "the learning standard it aligns with"),
    ],
  },
  {
    name: "Education Q&A",
    // Flashcard quizzes; a Quiz of practice questions is the "Practice problem" feature.
    applies: (n) =>
      n.types.includes("Quiz") && isTopLevel(n) &&
      valuesAt(n, "hasPart.eduQuestionType").some((v) => String(v) === "Flashcard"),
    checks: [
      each("hasPart", [
        required("text", "the question's full text"),
        required("acceptedAnswer", "the answer, an Answer with its text", "node"),
        each("acceptedAnswer", [required("text", "the answer's text")]),
      ]),
    ],
  },
  {
    name: "Math solver",
    applies: (n) => n.types.includes("MathSolver") && isTopLevel(n),
    checks: [
      required("url", "the solver's page", "url"),
      required("usageInfo", "the page of its usage policy", "url"),
      required("potentialAction", "a SolveMathAction with its target and mathExpression-input"),
    ],
  },
  {
    name: "Return policy",
    applies: (n) => anyIsA(n.types, "MerchantReturnPolicy"),
    checks: [
      required(
        "returnPolicyCategory",
        'e.g. "https://schema.org/MerchantReturnFiniteReturnWindow"',
      ),
      recommended("applicableCountry", 'the two-letter country code, e.g. "DE"'),
      (n, out) => {
        const finite = valuesAt(n, "returnPolicyCategory").some((v) =>
          shortTerm(String(v)) === "MerchantReturnFiniteReturnWindow"
        );
        if (finite) required("merchantReturnDays", "how many days returns are accepted")(n, out);
      },
    ],
  },
  {
    name: "Loyalty program",
    applies: (n) => n.types.includes("MemberProgram"),
    checks: [
      required("name", "the program's name"),
      required("description", "what members get"),
      required("hasTiers", "its tiers, each a MemberProgramTier with a name"),
    ],
  },
  {
    name: "Carousel",
    applies: (n) =>
      anyIsA(n.types, "ItemList") && isStandalone(n) &&
      withoutTypes(n, "BreadcrumbList", "HowToSection", "HowToStep", "OfferCatalog"),
    checks: [required("itemListElement", "the list's entries, each a ListItem with position")],
  },
  {
    name: "Subscription and paywalled content",
    applies: (n) =>
      anyIsA(n.types, "CreativeWork") &&
      valuesAt(n, "isAccessibleForFree").some((v) => String(v).toLowerCase() === "false"),
    checks: [
      recommended(
        "hasPart",
        'the paywalled parts, each a WebPageElement with "isAccessibleForFree": false and its cssSelector',
      ),
    ],
  },
];

/** Features whose rules a node is read for (names as in the feature table). */
export function featuresOf(n: RuleNode): string[] {
  return [...new Set(FEATURES.filter((f) => f.applies(n)).map((f) => f.name))];
}

/** Google's rules for one node: every issue, tagged with its feature. */
export function googleIssues(n: RuleNode): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const f of FEATURES) {
    if (!f.applies(n)) continue;
    const found: RuleIssue[] = [];
    for (const c of f.checks) c(n, found);
    for (const i of found) out.push({ ...i, feature: f.name });
  }
  return out;
}

/** Types whose rich result Google retired or restricted, by feature name. */
const RETIRED_TYPES: [string, string][] = [
  ["FAQPage", "FAQ"],
  ["HowTo", "HowTo"],
  ["ClaimReview", "Fact check"],
  ["SpecialAnnouncement", "Special announcement"],
  ["Occupation", "Estimated salary"],
];

/** Retired or restricted rich results that a node's markup aims at. */
export function deprecationsFor(n: RuleNode): DeprecationNote[] {
  const out: DeprecationNote[] = [];
  const note = (name: string) => {
    const f = googleFeature(name);
    if (f?.since) {
      out.push({
        feature: `${f.name} rich results`,
        since: f.since,
        message: `${
          f.note ?? ""
        } The markup is valid and other search engines and AI assistants still read it; just do not expect this rich result in Google.`
          .trim(),
      });
    }
  };
  for (const [type, feature] of RETIRED_TYPES) if (n.types.includes(type)) note(feature);
  if (n.types.includes("WebSite")) {
    const actions = asList(n.data.potentialAction).map((v) => nodeOf(n, v)).filter((
      x,
    ): x is JsonObject => !!x);
    if (actions.some((a) => typesOf(a).includes("SearchAction"))) {
      out.push({
        feature: "Sitelinks search box",
        since: "2024-11",
        message:
          "Google retired the sitelinks search box in November 2024. This WebSite SearchAction is harmless but no longer shown; you may remove it.",
      });
    }
  }
  return out;
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

function preview(v: JsonValue): string {
  const s = typeof v === "string" ? `"${v}"` : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
