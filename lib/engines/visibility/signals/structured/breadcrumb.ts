/** `structured.breadcrumb`: a BreadcrumbList places the page in the site. */
import { allNodes } from "../../check.ts";
import { codeBlock, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { nodesOfType } from "../../../structured/page_graph.ts";

export const breadcrumb: SignalDef = {
  id: "structured.breadcrumb",
  pillar: "structured",
  title: "BreadcrumbList",
  points: 1,
  scope: "page",
  learn: {
    what: "A BreadcrumbList states where a page sits in the site (Home > Blog > Post).",
    why: "It shows machines how the site is organised.",
    how: "We look for a BreadcrumbList node.",
    sources: [SOURCES.breadcrumb],
  },
  check(ctx) {
    const crumbs = nodesOfType(allNodes(ctx), ["BreadcrumbList"]);
    return {
      status: crumbs.length ? "pass" : "warn",
      detail: crumbs.length
        ? "A BreadcrumbList places the page in the site."
        : "No BreadcrumbList.",
      impact: "low",
    };
  },
  fix: (ctx) => ({
    what: "Add a BreadcrumbList",
    why: "Breadcrumbs show where a page sits in the site; they matter most on inner pages.",
    how: howText(
      "Add this node to the page's JSON-LD graph, with one ListItem per level from the home page down to this page:",
      codeBlock(
        JSON.stringify(
          {
            "@type": "BreadcrumbList",
            "@id": `${ctx.pageUrl}#breadcrumb`,
            itemListElement: [{
              "@type": "ListItem",
              position: 1,
              name: "Home",
              item: new URL("/", ctx.pageUrl).href,
            }],
          },
          null,
          2,
        ),
        "json",
      ),
    ),
    effort: "S",
  }),
};
