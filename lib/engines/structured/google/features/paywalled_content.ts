/** Subscription and paywalled content: tells Google which parts of a page are behind a paywall. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { recommended, valuesAt } from "../rule_kit.ts";

export const paywalledContent: GoogleFeature = {
  name: "Subscription and paywalled content",
  status: "supported",
  since: null,
  url: `${SD_DOCS}paywalled-content`,
  checked: "2026-11-26",
  rules: [{
    nodes: 'a CreativeWork with "isAccessibleForFree": false',
    applies: (n) =>
      anyIsA(n.types, "CreativeWork") &&
      valuesAt(n, "isAccessibleForFree").some((v) => String(v).toLowerCase() === "false"),
    checks: [
      recommended(
        "hasPart",
        'the paywalled parts, each a WebPageElement with "isAccessibleForFree": false and its cssSelector',
      ),
    ],
  }],
};
