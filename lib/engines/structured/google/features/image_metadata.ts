/** Image metadata: an image's creator, credit and licence in Google Images. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { oneOf, recommended, valuesAt } from "../rule_kit.ts";

export const imageMetadata: GoogleFeature = {
  name: "Image metadata",
  status: "supported",
  since: null,
  url: `${SD_DOCS}image-license-metadata`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level ImageObject that states a licence, credit, copyright or creator",
    types: ["ImageObject"],
    where: (n) =>
      isTopLevel(n) &&
      ["license", "acquireLicensePage", "creditText", "copyrightNotice", "creator"].some((p) =>
        valuesAt(n, p).length
      ),
    checks: [
      oneOf("error", ["contentUrl", "url"], "the image file's URL"),
      recommended("license", "the URL of the image's license", "url"),
      recommended("acquireLicensePage", "where to license the image", "url"),
    ],
  }],
  complete: [{
    "@type": "ImageObject",
    contentUrl: "https://example.com/photos/fjord.jpg",
    license: "https://example.com/license",
    acquireLicensePage: "https://example.com/buy-a-license",
    creditText: "Example Photo Agency",
  }],
};
