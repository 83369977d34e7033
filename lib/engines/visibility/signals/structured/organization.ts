/** `structured.organization`: an Organization (or Person) node says who is behind the site. */
import { allNodes } from "../../check.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";
import { nodesOfType, ORGANIZATION_TYPES, stringValues } from "../../../structured/page_graph.ts";

/** The node found and what it lacks (none found: types empty). */
interface Data {
  types: string[];
  missing: string[];
}

export const organization: SignalDef<Data> = {
  id: "structured.organization",
  pillar: "structured",
  title: "Organization (or Person) described",
  points: 4,
  scope: "page",
  learn: {
    what:
      "An Organization (or Person) node names who runs the site, with its logo, address and official profiles.",
    why: "It ties the site to an entity that AI systems and knowledge graphs can recognise.",
    how:
      "We look for an Organization, a subtype of it, or a Person in the structured data, and check its name, url and logo.",
    sources: [SOURCES.organization],
  },
  check(ctx) {
    const orgs = nodesOfType(allNodes(ctx), [...ORGANIZATION_TYPES, "Person"]);
    if (!orgs.length) {
      return {
        status: "fail",
        detail: "No Organization, LocalBusiness or Person node says who is behind the site.",
        data: { types: [], missing: [] },
      };
    }
    const org = orgs[0].data;
    const missing = ["name", "url", ...(orgs[0].types.includes("Person") ? [] : ["logo"])]
      .filter((k) => !stringValues(org[k]).length);
    return {
      status: missing.length ? "warn" : "pass",
      detail: missing.length
        ? `${orgs[0].types.join("/")} node lacks ${missing.join(", ")}.`
        : `${orgs[0].types.join("/")} "${stringValues(org.name)[0]}" with url and logo.`,
      points: 4 - missing.length,
      evidence: [`types: ${orgs[0].types.join(", ")}`],
      data: { types: orgs[0].types, missing },
    };
  },
  fix(ctx, found) {
    const { types, missing } = found.data!;
    return types.length
      ? jsonLdFix(
        ctx,
        `Complete the ${types[0]} node (${missing.join(", ")})`,
        "name, url and logo are what Google and AI systems need to show and recognise the entity.",
      )
      : jsonLdFix(
        ctx,
        "Describe your organisation in JSON-LD",
        "The Organization node is how AI systems tie your site to the entity they know (name, logo, profiles).",
      );
  },
};
