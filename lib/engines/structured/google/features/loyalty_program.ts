/** Loyalty program: member prices and points of a merchant's program. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { required } from "../rule_kit.ts";

export const loyaltyProgram: GoogleFeature = {
  name: "Loyalty program",
  status: "supported",
  since: null,
  url: `${SD_DOCS}loyalty-program`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a MemberProgram",
    types: ["MemberProgram"],
    checks: [
      required("name", "the program's name"),
      required("description", "what members get"),
      required("hasTiers", "its tiers, each a MemberProgramTier with a name"),
    ],
  }],
  complete: [{
    "@type": "MemberProgram",
    name: "Example Club",
    description: "Points on every purchase and free delivery.",
    hasTiers: { "@type": "MemberProgramTier", name: "Gold" },
  }],
};
