/** Dataset: data sets in Google Dataset Search. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { recommended, required } from "../rule_kit.ts";

export const dataset: GoogleFeature = {
  name: "Dataset",
  status: "supported",
  since: null,
  url: `${SD_DOCS}dataset`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level Dataset",
    types: ["Dataset"],
    where: isTopLevel,
    checks: [
      required("name", "the dataset's name"),
      required("description", "a summary of 50 to 5000 characters"),
      recommended("license", "the license's URL", "url"),
      recommended("creator", "who made it, a Person or Organization"),
      recommended("url", "the dataset's page", "url"),
    ],
  }],
  complete: [{
    "@type": "Dataset",
    name: "Daily rainfall in Oslo, 1990-2025",
    description:
      "Rainfall measured each day at the Blindern station, in millimetres, from 1990 to 2025.",
    license: "https://creativecommons.org/licenses/by/4.0/",
    creator: { "@type": "Organization", name: "Example Weather Office" },
    url: "https://example.com/data/oslo-rainfall",
  }],
};
