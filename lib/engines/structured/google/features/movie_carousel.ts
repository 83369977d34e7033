/** Movie carousel: a list of films from one site. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isListEntry, isTopLevel } from "../placement.ts";
import { recommended, required } from "../rule_kit.ts";

export const movieCarousel: GoogleFeature = {
  name: "Movie carousel",
  status: "supported",
  since: null,
  url: `${SD_DOCS}movie`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level Movie or a list's Movie entry",
    types: ["Movie"],
    where: (n) => isTopLevel(n) || isListEntry(n),
    checks: [
      required("name", "the film's title"),
      required("image", "a poster or still", "url"),
      recommended("director", "its director, a Person"),
      recommended("dateCreated", "its release date", "date"),
      recommended("aggregateRating", "its average rating"),
    ],
  }],
  generator: { primary: ["Movie"] },
  complete: [{
    "@type": "Movie",
    name: "The Example",
    image: "https://example.com/photos/poster.jpg",
    dateCreated: "2025-05-01",
    director: { "@type": "Person", name: "Ann Poe" },
    aggregateRating: { "@type": "AggregateRating", ratingValue: 4, ratingCount: 80 },
  }],
};
