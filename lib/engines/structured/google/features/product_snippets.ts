/** Product snippets: price, availability and ratings of a product under its result. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isProductParent, isProductPlace } from "../placement.ts";
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
      // A ProductGroup is the Product variants page's.
      types: ["Product"],
      where: isProductPlace,
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
      types: ["AggregateOffer"],
      where: isProductParent,
      checks: [
        required("lowPrice", "the lowest of the offers' prices, as a number", "number"),
        required("priceCurrency", KIND_HINT.currency, "currency"),
        recommended("highPrice", "the highest price, as a number", "number"),
        recommended("offerCount", "how many offers there are", "number"),
      ],
    },
    {
      nodes: "a Product's Offer (an AggregateOffer has its own rule)",
      types: ["Offer"],
      where: isProductParent,
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
  complete: [
    {
      "@type": "Product",
      name: "Trail runner",
      image: "https://example.com/photos/shoe.jpg",
      offers: {
        "@type": "Offer",
        price: 89.5,
        priceCurrency: "EUR",
        availability: "https://schema.org/InStock",
        priceValidUntil: "2026-12-31",
      },
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.4, reviewCount: 89 },
      review: {
        "@type": "Review",
        author: { "@type": "Person", name: "Bo Lind" },
        reviewRating: { "@type": "Rating", ratingValue: 5 },
      },
    },
    {
      "@type": "Product",
      name: "Executive anvil",
      image: "https://example.com/photos/anvil.jpg",
      offers: {
        "@type": "AggregateOffer",
        lowPrice: 119.99,
        highPrice: 199.99,
        offerCount: 4,
        priceCurrency: "USD",
      },
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.4, ratingCount: 89 },
      review: {
        "@type": "Review",
        author: { "@type": "Person", name: "Bo Lind" },
        reviewRating: { "@type": "Rating", ratingValue: 5 },
      },
    },
  ],
};
