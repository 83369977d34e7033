/**
 * Google's rich-result features, first part of the table (the order google_rules.ts applies them
 * in): businesses, organizations, articles, products and their offers, reviews and ratings,
 * breadcrumbs, site names.
 */
import { anyIsA } from "./vocabulary.ts";
import { typesOf } from "./terms.ts";
import {
  each,
  type Feature,
  KIND_HINT,
  namedEntity,
  oneOf,
  recommended,
  required,
} from "./google_rule_kit.ts";
import {
  breadcrumbEntries,
  hasOffers,
  isHomePage,
  isProductItem,
  isProductParent,
  isStandalone,
  isTopLevel,
  itemReviewed,
  offerChecks,
  postalAddress,
  ratingRange,
  withoutTypes,
} from "./google_checks.ts";

/** The features from Local business to Site name, in the order they apply. */
export const COMMERCE_FEATURES: Feature[] = [
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
];
