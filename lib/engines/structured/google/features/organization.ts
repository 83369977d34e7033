/** Organization: the organization's details (logo, profiles) in Google's knowledge panel. */
import { anyIsA } from "../../vocabulary.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isStandalone } from "../placement.ts";
import { recommended } from "../rule_kit.ts";

export const organization: GoogleFeature = {
  name: "Organization",
  status: "supported",
  since: null,
  url: `${SD_DOCS}organization`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone Organization that is not a LocalBusiness",
    applies: (n) =>
      anyIsA(n.types, "Organization") && !anyIsA(n.types, "LocalBusiness") && isStandalone(n),
    checks: [
      recommended("name", "the organization's name"),
      recommended("url", "its home page", "url"),
      recommended("logo", "an image URL of the logo, at least 112x112 px", "url"),
      recommended(
        "sameAs",
        "URLs of its profiles: Wikipedia, Wikidata, LinkedIn, social networks",
        "url",
      ),
    ],
  }],
};
