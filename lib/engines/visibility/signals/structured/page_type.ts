/** `structured.page_type`: a node says what the page itself is (WebPage, Article, Product...). */
import { allNodes } from "../../check.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";
import { nodesOfType, PAGE_TYPES } from "../../../structured/page_graph.ts";

export const pageType: SignalDef = {
  id: "structured.page_type",
  pillar: "structured",
  title: "The page's own type is stated",
  points: 2,
  scope: "page",
  learn: {
    what: "A node such as WebPage, Article or Product says what this page itself is.",
    why: "It tells machines what kind of answer the page can give.",
    how: "We look for a node describing the page (WebPage or a more specific type).",
    sources: [SOURCES.structuredData],
  },
  check(ctx) {
    const pages = nodesOfType(allNodes(ctx), PAGE_TYPES);
    return {
      status: pages.length ? "pass" : "fail",
      detail: pages.length
        ? `The page is described as ${[...new Set(pages.flatMap((p) => p.types))].join(", ")}.`
        : "No WebPage, Article, Product, FAQPage or similar node says what this page is.",
    };
  },
  fix: (ctx) =>
    jsonLdFix(
      ctx,
      "Describe the page itself (WebPage, Article, Product, ...)",
      "The page type tells AI systems what kind of answer the page can support.",
    ),
};
