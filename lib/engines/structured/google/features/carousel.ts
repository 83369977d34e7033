/** Carousel: a list of recipes, courses, restaurants or films from one site. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isStandalone, withoutTypes } from "../placement.ts";
import { required } from "../rule_kit.ts";

export const carousel: GoogleFeature = {
  name: "Carousel",
  status: "supported",
  since: null,
  url: `${SD_DOCS}carousel`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone ItemList (not a breadcrumb, HowTo section or step, or OfferCatalog)",
    applies: (n) =>
      anyIsA(n.types, "ItemList") && isStandalone(n) &&
      withoutTypes(n, "BreadcrumbList", "HowToSection", "HowToStep", "OfferCatalog"),
    checks: [required("itemListElement", "the list's entries, each a ListItem with position")],
  }],
};
