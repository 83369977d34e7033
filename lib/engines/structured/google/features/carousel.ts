/** Carousel: a list of recipes, courses, restaurants or films from one site. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isStandalone } from "../placement.ts";
import { required } from "../rule_kit.ts";

export const carousel: GoogleFeature = {
  name: "Carousel",
  status: "supported",
  since: null,
  url: `${SD_DOCS}carousel`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone ItemList (not a breadcrumb, HowTo section or step, or OfferCatalog)",
    types: ["ItemList"],
    where: isStandalone,
    checks: [required("itemListElement", "the list's entries, each a ListItem with position")],
  }],
  complete: [{
    "@type": "ItemList",
    itemListElement: [
      { "@type": "ListItem", position: 1, url: "https://example.com/recipes/bread" },
      { "@type": "ListItem", position: 2, url: "https://example.com/recipes/cake" },
    ],
  }],
};
