/** Vacation rental: a rental listing in Google's travel results. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { recommended, required } from "../rule_kit.ts";

export const vacationRental: GoogleFeature = {
  name: "Vacation rental",
  status: "supported",
  since: null,
  url: `${SD_DOCS}vacation-rental`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level VacationRental",
    types: ["VacationRental"],
    where: isTopLevel,
    checks: [
      required("name", "the listing's name"),
      required("identifier", "your own id of the listing"),
      required("image", "photos of the rental (Google asks for at least eight)", "url"),
      required("latitude", "its latitude", "number"),
      required("longitude", "its longitude", "number"),
      required("containsPlace", "the Accommodation with its occupancy", "node"),
      recommended("address", "its PostalAddress"),
      recommended("aggregateRating", "its average rating"),
    ],
  }],
  complete: [{
    "@type": "VacationRental",
    name: "Cabin by the fjord",
    identifier: "cabin-7",
    image: "https://example.com/photos/cabin.jpg",
    latitude: 60.39299,
    longitude: 5.32415,
    containsPlace: {
      "@type": "Accommodation",
      occupancy: { "@type": "QuantitativeValue", value: 4 },
    },
    address: {
      "@type": "PostalAddress",
      streetAddress: "1 Fjord Road",
      addressLocality: "Bergen",
      postalCode: "5003",
      addressCountry: "NO",
    },
    aggregateRating: { "@type": "AggregateRating", ratingValue: 4.8, ratingCount: 30 },
  }],
};
