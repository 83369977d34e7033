/** Subscription and paywalled content: tells Google which parts of a page are behind a paywall. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { recommended, valuesAt } from "../rule_kit.ts";

export const paywalledContent: GoogleFeature = {
  name: "Subscription and paywalled content",
  status: "supported",
  since: null,
  url: `${SD_DOCS}paywalled-content`,
  checked: "2026-11-26",
  // It marks parts of other features' items; it owns no kind of item.
  overlay: true,
  rules: [{
    nodes: 'a CreativeWork with "isAccessibleForFree": false (not one of its parts)',
    types: ["CreativeWork"],
    // The paywalled parts themselves (hasPart) carry the flag too; they need no parts of their own.
    where: (n) =>
      n.parentProperty !== "hasPart" &&
      valuesAt(n, "isAccessibleForFree").some((v) => String(v).toLowerCase() === "false"),
    checks: [
      recommended(
        "hasPart",
        'the paywalled parts, each a WebPageElement with "isAccessibleForFree": false and its cssSelector',
      ),
    ],
  }],
  complete: [{
    "@type": "CreativeWork",
    isAccessibleForFree: false,
    hasPart: {
      "@type": "WebPageElement",
      isAccessibleForFree: false,
      cssSelector: ".paywall",
    },
  }],
};
