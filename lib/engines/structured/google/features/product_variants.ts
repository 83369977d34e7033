/** Product variants: a ProductGroup and its variants (sizes, colours) as one product. */
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
    types: ["ProductGroup"],
    where: isTopLevel,
    checks: [
      required("name", "the product group's name"),
      required("hasVariant", "the variants, each a Product with its offer"),
      recommended("productGroupID", "the group's own identifier (the parent SKU)"),
      recommended("variesBy", 'what the variants differ in, e.g. "https://schema.org/size"'),
    ],
  }],
  complete: [{
    "@type": "ProductGroup",
    name: "Wool sweater",
    productGroupID: "WS-1",
    variesBy: "https://schema.org/size",
    hasVariant: [{
      "@type": "Product",
      name: "Wool sweater, size M",
      size: "M",
      offers: { "@type": "Offer", price: 79, priceCurrency: "EUR" },
    }],
  }],
};
