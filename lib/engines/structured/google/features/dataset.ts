/** Dataset: data sets in Google Dataset Search. */
import { anyIsA } from "../../vocabulary.ts";
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
    applies: (n) => anyIsA(n.types, "Dataset") && isTopLevel(n),
    checks: [
      required("name", "the dataset's name"),
      required("description", "a summary of 50 to 5000 characters"),
      recommended("license", "the license's URL", "url"),
      recommended("creator", "who made it, a Person or Organization"),
      recommended("url", "the dataset's page", "url"),
    ],
  }],
};
