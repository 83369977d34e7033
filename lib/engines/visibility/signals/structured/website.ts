/** `structured.website`: a WebSite node names the site. */
import { allNodes } from "../../check.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";
import { nodesOfType, stringValues } from "../../../structured/page_graph.ts";

export const website: SignalDef = {
  id: "structured.website",
  pillar: "structured",
  title: "WebSite node",
  points: 2,
  scope: "page",
  learn: {
    what: "A WebSite node states the site's name and address.",
    why: "Google uses it to choose the site name it shows; AI systems use it to name the source.",
    how: "We look for a WebSite node with a name and url.",
    sources: [SOURCES.siteNames],
  },
  check(ctx) {
    const sites = nodesOfType(allNodes(ctx), ["WebSite"]);
    const ok = sites.some((s) =>
      stringValues(s.data.name).length && stringValues(s.data.url).length
    );
    return {
      status: ok ? "pass" : sites.length ? "warn" : "fail",
      detail: ok
        ? "A WebSite node names the site."
        : sites.length
        ? "The WebSite node lacks name or url."
        : "No WebSite node names the site.",
    };
  },
  fix: (ctx) =>
    jsonLdFix(
      ctx,
      "Add a WebSite node",
      "WebSite gives the site's canonical name, which AI systems and Google show as the source name.",
    ),
};
