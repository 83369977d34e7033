/** Site name: the name shown for the site above its results (read on the home page only). */
import type { GoogleFeature } from "../feature.ts";
import { isHomePage, isStandalone } from "../placement.ts";
import { required } from "../rule_kit.ts";

export const siteName: GoogleFeature = {
  name: "Site name",
  status: "supported",
  since: null,
  url: "https://developers.google.com/search/docs/appearance/site-names",
  checked: "2026-11-26",
  rules: [{
    nodes: "a stand-alone WebSite on the site's home page",
    types: ["WebSite"],
    where: (n) => isStandalone(n) && isHomePage(n.pageUrl),
    checks: [
      required("name", "the site's name as you want it shown in results"),
      required("url", "the home page URL", "url"),
    ],
  }],
  complete: [{ "@type": "WebSite", name: "Example", url: "https://example.com/" }],
};
