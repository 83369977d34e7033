/** Software app: an app's rating and price under its result. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { oneOf, recommended, required } from "../rule_kit.ts";

export const softwareApp: GoogleFeature = {
  name: "Software app",
  status: "supported",
  since: null,
  url: `${SD_DOCS}software-app`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level SoftwareApplication (or subtype)",
    types: ["SoftwareApplication"],
    where: isTopLevel,
    checks: [
      required("name", "the app's name"),
      required("offers.price", 'its price as a number ("0" when it is free)', "number"),
      oneOf("error", ["aggregateRating", "review"], "its average rating or a review"),
      recommended("applicationCategory", 'e.g. "GameApplication"'),
      recommended("operatingSystem", 'e.g. "Android" or "Windows 10"'),
    ],
  }],
  generator: { primary: ["SoftwareApplication"] },
  complete: [{
    "@type": "SoftwareApplication",
    name: "Example Notes",
    operatingSystem: "Android",
    applicationCategory: "BusinessApplication",
    offers: { "@type": "Offer", price: 0, priceCurrency: "EUR" },
    aggregateRating: { "@type": "AggregateRating", ratingValue: 4.6, ratingCount: 8864 },
  }],
};
