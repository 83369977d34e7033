/** Product snippets: price, availability and ratings of a product under its result. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isProductItem, isProductParent } from "../placement.ts";
import { offerCurrencyValid, offerPrice } from "../offer.ts";
import { KIND_HINT, oneOf, recommended, required } from "../rule_kit.ts";

export const productSnippets: GoogleFeature = {
  name: "Product snippets",
  status: "supported",
  since: null,
  url: `${SD_DOCS}product-snippet`,
  checked: "2026-11-26",
  rules: [
    {
      nodes: "a top-level Product (or a ProductGroup's variant), not a ProductGroup",
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
      nodes: "a Product's AggregateOffer",
      applies: (n) => anyIsA(n.types, "AggregateOffer") && isProductParent(n),
      checks: [
        required("lowPrice", "the lowest of the offers' prices, as a number", "number"),
        required("priceCurrency", KIND_HINT.currency, "currency"),
        recommended("highPrice", "the highest price, as a number", "number"),
        recommended("offerCount", "how many offers there are", "number"),
      ],
    },
    {
      nodes: "a Product's Offer (not an AggregateOffer)",
      applies: (n) =>
        anyIsA(n.types, "Offer") && !anyIsA(n.types, "AggregateOffer") && isProductParent(n),
      checks: [
        ...offerPrice,
        oneOf("warning", ["priceCurrency", "priceSpecification.priceCurrency"], KIND_HINT.currency),
        offerCurrencyValid,
        recommended("availability", "whether it is in stock", "availability"),
        recommended(
          "priceValidUntil",
          "the date after which the price no longer applies, if it ends",
          "date",
        ),
      ],
    },
  ],
  generator: { primary: ["Product"] },
};
