/** Sitelinks search box: retired in November 2024 (a WebSite's SearchAction aims at it). */
import { asList, typesOf } from "../../terms.ts";
import type { GoogleFeature } from "../feature.ts";
import { nodeOf } from "../rule_kit.ts";

export const sitelinksSearchBox: GoogleFeature = {
  name: "Sitelinks search box",
  status: "deprecated",
  since: "2024-11",
  url: "https://developers.google.com/search/blog/2024/10/sitelinks-search-box",
  checked: "2026-11-26",
  resultName: "Sitelinks search box",
  note: "Google retired the sitelinks search box in November 2024.",
  afterlife: "This WebSite SearchAction is harmless but no longer shown; you may remove it.",
  rules: [],
  aimedAt: (n) =>
    n.types.includes("WebSite") &&
    asList(n.data.potentialAction).some((v) => {
      const a = nodeOf(n, v);
      return !!a && typesOf(a).includes("SearchAction");
    }),
};
