/** Math solver: a site that solves maths problems, offered from Search. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { isTopLevel } from "../placement.ts";
import { required } from "../rule_kit.ts";

export const mathSolver: GoogleFeature = {
  name: "Math solver",
  status: "supported",
  since: null,
  url: `${SD_DOCS}math-solvers`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a top-level MathSolver",
    applies: (n) => n.types.includes("MathSolver") && isTopLevel(n),
    checks: [
      required("url", "the solver's page", "url"),
      required("usageInfo", "the page of its usage policy", "url"),
      required("potentialAction", "a SolveMathAction with its target and mathExpression-input"),
    ],
  }],
};
