/** Vacation rental: a rental listing in Google's travel results. */
import { anyIsA } from "../../vocabulary.ts";
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
    applies: (n) => anyIsA(n.types, "VacationRental") && isTopLevel(n),
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
};
