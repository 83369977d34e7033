/**
 * Merchant listings: a product for sale with its price, shipping and returns (shopping knowledge
 * panel, Google Images, popular products). Google's page lists, for the Offer, the price and its
 * ISO 4217 currency as required and shipping details (OfferShippingDetails), the return policy
 * (MerchantReturnPolicy, on the offer or the selling Organization) and the item condition
 * (OfferItemCondition) as recommended.
 */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { hasOffers, isProductParent, isProductPlace } from "../placement.ts";
import { offerCurrencyValid, offerPrice } from "../offer.ts";
import { each, KIND_HINT, oneOf, recommended, required } from "../rule_kit.ts";

export const merchantListing: GoogleFeature = {
  name: "Merchant listing",
  status: "supported",
  since: null,
  url: `${SD_DOCS}merchant-listing`,
  checked: "2026-11-26",
  rules: [
    {
      nodes: "a Product of product snippets that has offers",
      types: ["Product"],
      where: (n) => isProductPlace(n) && hasOffers(n),
      checks: [
        required("name", "the product's name"),
        required("image", "a product image URL", "url"),
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
      nodes: "a Product's Offer (an AggregateOffer is the product snippets' rule's)",
      types: ["Offer"],
      where: isProductParent,
      checks: [
        ...offerPrice,
        oneOf("error", ["priceCurrency", "priceSpecification.priceCurrency"], KIND_HINT.currency),
        offerCurrencyValid,
        recommended(
          "shippingDetails",
          "the shipping cost and destination, an OfferShippingDetails with shippingRate and shippingDestination",
          "node",
        ),
        each("shippingDetails", [
          oneOf("warning", ["shippingRate", "doesNotShip"], "the shipping cost, a MonetaryAmount"),
          recommended("shippingDestination", "where it ships, a DefinedRegion with addressCountry"),
          recommended("deliveryTime", "handling and transit times, a ShippingDeliveryTime"),
        ]),
        recommended(
          "hasMerchantReturnPolicy",
          "the return policy, a MerchantReturnPolicy (or one on the selling Organization)",
          "node",
        ),
        recommended("itemCondition", KIND_HINT.itemCondition, "itemCondition"),
      ],
    },
  ],
  complete: [{
    "@type": "Product",
    name: "Trail runner",
    image: "https://example.com/photos/shoe.jpg",
    description: "A light trail running shoe.",
    sku: "TR-42",
    brand: { "@type": "Brand", name: "Example" },
    offers: {
      "@type": "Offer",
      price: 89.5,
      priceCurrency: "EUR",
      itemCondition: "https://schema.org/NewCondition",
      shippingDetails: {
        "@type": "OfferShippingDetails",
        shippingRate: { "@type": "MonetaryAmount", value: 5, currency: "EUR" },
        shippingDestination: { "@type": "DefinedRegion", addressCountry: "NO" },
        deliveryTime: {
          "@type": "ShippingDeliveryTime",
          handlingTime: { "@type": "QuantitativeValue", minValue: 0, maxValue: 1, unitCode: "DAY" },
          transitTime: { "@type": "QuantitativeValue", minValue: 1, maxValue: 3, unitCode: "DAY" },
        },
      },
      hasMerchantReturnPolicy: {
        "@type": "MerchantReturnPolicy",
        applicableCountry: "NO",
        returnPolicyCategory: "https://schema.org/MerchantReturnFiniteReturnWindow",
        merchantReturnDays: 30,
      },
    },
  }],
};
