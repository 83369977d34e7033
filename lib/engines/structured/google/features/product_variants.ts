/** Product variants: a ProductGroup and its variants (sizes, colours) as one product. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { recommended, required } from "../rule_kit.ts";

export const productVariants: GoogleFeature = {
  name: "Product variants",
  status: "supported",
  since: null,
  url: `${SD_DOCS}product-variants`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level ProductGroup",
    applies: (n) => anyIsA(n.types, "ProductGroup") && isTopLevel(n),
    checks: [
      required("name", "the product group's name"),
      required("hasVariant", "the variants, each a Product with its offer"),
      recommended("productGroupID", "the group's own identifier (the parent SKU)"),
      recommended("variesBy", 'what the variants differ in, e.g. "https://schema.org/size"'),
    ],
  }],
};
