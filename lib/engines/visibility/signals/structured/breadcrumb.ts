/** `structured.breadcrumb`: a BreadcrumbList places the page in the site. */
import { allNodes, clip } from "../../check.ts";
import { pasteInHead } from "../../fix_steps.ts";
import { scriptFor } from "../../../structured/generator/checked_graph.ts";
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
    how:
      "We look for a BreadcrumbList node. A home page at the root of its site is not asked for one: a trail needs two entries or more, and the root is where every trail starts.",
    sources: [SOURCES.breadcrumb],
  },
  check(ctx) {
    const crumbs = nodesOfType(allNodes(ctx), ["BreadcrumbList"]);
    // The site's root is where every trail starts: a trail needs two entries or more (Google's
    // breadcrumb documentation), so a home page at the root has none to state.
    if (!crumbs.length && new URL(ctx.pageUrl).pathname === "/") {
      return {
        status: "na",
        detail:
          "The home page is the root of the site: breadcrumb trails start below it, on inner pages.",
      };
    }
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
      pasteInHead(
        [ctx.pageUrl],
        ", with one ListItem per level from the home page down to this page (the last is the page itself):",
      ),
      codeBlock(
        scriptFor({
          "@context": "https://schema.org",
          "@type": "BreadcrumbList",
          "@id": `${ctx.pageUrl}#breadcrumb`,
          itemListElement: [{
            "@type": "ListItem",
            position: 1,
            name: "Home",
            item: new URL("/", ctx.pageUrl).href,
          }, {
            "@type": "ListItem",
            position: 2,
            name: clip(
              ctx.facts.headings.find((h) => h.level === 1)?.text ?? ctx.facts.title ??
                "FILL-IN: this page's name",
              80,
            ),
            item: ctx.pageUrl,
          }],
        }),
        "html",
      ),
    ),
    effort: "S",
  }),
};
