/** Event: concerts, festivals and other events with their date and place. */
import { anyIsA } from "../../vocabulary.ts";
import { asList, typesOf } from "../../terms.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { type Check, each, KIND_HINT, nodeOf, recommended, required } from "../rule_kit.ts";

const dateOrder: Check = (n, out) => {
  const start = Date.parse(String(asList(n.data.startDate)[0] ?? ""));
  const end = Date.parse(String(asList(n.data.endDate)[0] ?? ""));
  if (Number.isFinite(start) && Number.isFinite(end) && end < start) {
    out.push({
      severity: "warning",
      property: "endDate",
      feature: "",
      message: "endDate is before startDate; check both dates and their time zones.",
    });
  }
};

const eventLocation: Check = (n, out) => {
  for (const v of asList(n.data.location)) {
    if (typeof v === "string") {
      out.push({
        severity: "error",
        property: "location",
        feature: "",
        message:
          'Make "location" a Place with a name and an "address" (a PostalAddress), or a VirtualLocation with a "url".',
      });
      continue;
    }
    const node = nodeOf(n, v);
    if (!node) continue;
    if (anyIsA(typesOf(node), "VirtualLocation")) {
      if (!asList(node.url).length) {
        out.push({
          severity: "error",
          property: "location.url",
          feature: "",
          message: 'Add the VirtualLocation\'s "url" (where people join the event online).',
        });
      }
    } else if (!asList(node.address).length) {
      out.push({
        severity: "error",
        property: "location.address",
        feature: "",
        message:
          'Add the Place\'s "address" (a PostalAddress with streetAddress, addressLocality, postalCode, addressCountry).',
      });
    }
  }
};

export const event: GoogleFeature = {
  name: "Event",
  status: "supported",
  since: null,
  url: `${SD_DOCS}event`,
  checked: "2026-12-06",
  rules: [{
    // Comment markup (UserComments) and publication events are Events only in schema.org's tree.
    nodes: "a top-level Event (or subtype), not UserComments or a PublicationEvent",
    // Comment markup (UserComments) is an Event only in schema.org's superseded terms, which no
    // rule reads; a live video's BroadcastEvent is the Video page's.
    types: ["Event"],
    where: isTopLevel,
    checks: [
      required("name", "the event's name"),
      required("startDate", "when it starts", "date"),
      required("location", "a Place with address, or a VirtualLocation with url"),
      eventLocation,
      dateOrder,
      recommended("endDate", "when it ends", "date"),
      recommended("description", "what the event is"),
      recommended("image", "an image URL", "url"),
      recommended("eventStatus", 'e.g. "https://schema.org/EventScheduled"'),
      recommended("eventAttendanceMode", 'e.g. "https://schema.org/OfflineEventAttendanceMode"'),
      recommended("organizer", "who organises it, with name and url"),
      recommended("performer", "who performs, with name"),
      recommended("offers", "ticket price, currency, availability and url"),
      each("offers", [
        recommended("price", "the ticket price, as a number", "number"),
        recommended("priceCurrency", KIND_HINT.currency, "currency"),
        recommended("availability", "whether tickets are available", "availability"),
        recommended("url", "where to buy tickets", "url"),
      ]),
    ],
  }],
  generator: { primary: ["Event"] },
  complete: [{
    "@type": "Event",
    name: "Autumn chamber concert",
    startDate: "2026-11-20T19:00:00+01:00",
    endDate: "2026-11-20T21:00:00+01:00",
    description: "Schubert and Brahms by the Example Quartet.",
    image: "https://example.com/photos/concert.jpg",
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    location: {
      "@type": "Place",
      name: "Example Hall",
      address: {
        "@type": "PostalAddress",
        streetAddress: "1 Main Street",
        addressLocality: "Bergen",
        postalCode: "5003",
        addressCountry: "NO",
      },
    },
    organizer: { "@type": "Organization", name: "Example Hall", url: "https://example.com/" },
    performer: { "@type": "PerformingGroup", name: "Example Quartet" },
    offers: {
      "@type": "Offer",
      price: 30,
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
      url: "https://example.com/tickets",
    },
  }],
};
