/** Organization: the organization's details (logo, profiles) in Google's knowledge panel. */
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
    // A LocalBusiness (an Organization in schema.org) is the Local business page's.
    types: ["Organization"],
    where: isStandalone,
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
  complete: [{
    "@type": "Organization",
    name: "Example Ltd",
    url: "https://example.com/",
    logo: "https://example.com/logo.png",
    sameAs: "https://www.wikidata.org/wiki/Q42",
  }],
};
