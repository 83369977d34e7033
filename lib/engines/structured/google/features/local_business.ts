/** Local business: a business's details in the knowledge panel and maps. */
import { asList } from "../../terms.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import {
  type Check,
  nodeOf,
  recommended,
  required,
  type RuleIssue,
  type RuleNode,
} from "../rule_kit.ts";

/** The address as a PostalAddress with its parts (each a warning when missing). */
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

export const localBusiness: GoogleFeature = {
  name: "Local business",
  status: "supported",
  since: null,
  url: `${SD_DOCS}local-business`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level LocalBusiness (or subtype)",
    types: ["LocalBusiness"],
    where: isTopLevel,
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
  }],
  complete: [{
    "@type": "LocalBusiness",
    name: "Example Bakery",
    address: {
      "@type": "PostalAddress",
      streetAddress: "1 Main Street",
      addressLocality: "Bergen",
      postalCode: "5003",
      addressCountry: "NO",
    },
    telephone: "+47 55 00 00 00",
    url: "https://example.com/",
    image: "https://example.com/photos/shop.jpg",
    openingHoursSpecification: {
      "@type": "OpeningHoursSpecification",
      dayOfWeek: "https://schema.org/Monday",
      opens: "07:00",
      closes: "17:00",
    },
    geo: { "@type": "GeoCoordinates", latitude: 60.39299, longitude: 5.32415 },
    priceRange: "$$",
  }],
};
