/**
 * Merchant listings: a product for sale with its price, shipping and returns (shopping knowledge
 * panel, Google Images, popular products). Google's page lists, for the Offer, the price and its
 * ISO 4217 currency as required and shipping details (OfferShippingDetails), the return policy
 * (MerchantReturnPolicy, on the offer or the selling Organization) and the item condition
 * (OfferItemCondition) as recommended.
 */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { hasOffers, isProductItem, isProductParent } from "../placement.ts";
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
      applies: (n) => isProductItem(n) && hasOffers(n),
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
      nodes: "a Product's Offer (not an AggregateOffer)",
      applies: (n) =>
        anyIsA(n.types, "Offer") && !anyIsA(n.types, "AggregateOffer") && isProductParent(n),
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
};
