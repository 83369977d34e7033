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
    types: ["MathSolver"],
    where: isTopLevel,
    checks: [
      required("url", "the solver's page", "url"),
      required("usageInfo", "the page of its usage policy", "url"),
      required("potentialAction", "a SolveMathAction with its target and mathExpression-input"),
    ],
  }],
  complete: [{
    "@type": ["MathSolver", "LearningResource"],
    url: "https://example.com/solver",
    usageInfo: "https://example.com/privacy",
    potentialAction: {
      "@type": "SolveMathAction",
      target: "https://example.com/solve?q={math_expression_string}",
      "mathExpression-input": "required name=math_expression_string",
    },
  }],
};
