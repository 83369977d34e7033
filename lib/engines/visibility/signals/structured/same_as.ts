/** `structured.same_as`: sameAs ties the organisation to its profiles elsewhere. */
import { allNodes } from "../../check.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { nodesOfType, ORGANIZATION_TYPES, stringValues } from "../../../structured/page_graph.ts";

export const sameAs: SignalDef = {
  id: "structured.same_as",
  pillar: "structured",
  title: "sameAs links to the entity's profiles",
  points: 3,
  scope: "page",
  learn: {
    what:
      "sameAs lists the official profiles of the same organisation elsewhere: Wikidata, Wikipedia, LinkedIn, social networks.",
    why: "It lets AI systems confirm that these profiles and your site are one entity.",
    how: "We read the sameAs of the Organization or Person and count the profile links.",
    sources: [SOURCES.sameAs, SOURCES.organization],
  },
  check(ctx) {
    const orgs = nodesOfType(allNodes(ctx), [...ORGANIZATION_TYPES, "Person"]);
    const links = orgs.flatMap((o) => stringValues(o.data.sameAs));
    return {
      status: links.length >= 2 ? "pass" : links.length === 1 ? "warn" : "fail",
      detail: links.length
        ? `sameAs lists ${links.length} profile${links.length > 1 ? "s" : ""}.`
        : "No sameAs links tie the organisation to its profiles (Wikidata, Wikipedia, LinkedIn, social).",
      evidence: links.slice(0, 8),
    };
  },
  // The profiles go in the Organization node of the home page's graph: one fix with the other
  // structured-data checks (the graph carries the links the scan can vouch for, else templates).
  fix: (ctx) =>
    jsonLdFix(
      ctx,
      "List your official profiles in sameAs",
      "sameAs is how AI systems connect your site to the same entity on Wikidata, Wikipedia and social networks, which raises confidence in citing you.",
    ),
};
