/** Profile page: a person's or organization's profile on a forum or social site. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isStandalone } from "../placement.ts";
import { each, recommended, required } from "../rule_kit.ts";

export const profilePage: GoogleFeature = {
  name: "Profile page",
  status: "supported",
  since: null,
  url: `${SD_DOCS}profile-page`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone ProfilePage",
    types: ["ProfilePage"],
    where: isStandalone,
    checks: [
      required("mainEntity", "the Person or Organization the page is about", "node"),
      each("mainEntity", [required("name", "their name")]),
      recommended("dateCreated", "when the profile was created", "date"),
      recommended("dateModified", "when it was last changed", "date"),
    ],
  }],
  complete: [{
    "@type": "ProfilePage",
    dateCreated: "2024-01-05T08:00:00+01:00",
    dateModified: "2026-10-12T08:00:00+01:00",
    mainEntity: { "@type": "Person", name: "Anna Reid" },
  }],
};
