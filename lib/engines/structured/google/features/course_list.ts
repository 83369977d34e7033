/** Course list: a list of courses from one provider. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isListEntry, isTopLevel } from "../placement.ts";
import { recommended, required } from "../rule_kit.ts";

export const courseList: GoogleFeature = {
  name: "Course list",
  status: "supported",
  since: null,
  url: `${SD_DOCS}course`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level Course or a list's Course entry",
    types: ["Course"],
    where: (n) => isTopLevel(n) || isListEntry(n),
    checks: [
      required("name", "the course's title"),
      required("description", "what it teaches"),
      recommended("provider", "who offers it, an Organization with its name"),
    ],
  }],
  generator: { primary: ["Course"] },
  complete: [{
    "@type": "Course",
    name: "Introduction to statistics",
    description: "Means, variances and the central limit theorem, with exercises.",
    provider: { "@type": "Organization", name: "Example University" },
  }],
};
