/** `structured.same_as`: sameAs ties the organisation to its profiles elsewhere. */
import { allNodes, type ScanContext } from "../../check.ts";
import { codeBlock, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { identityLinks, SAME_AS_FILL_IN } from "../../same_as.ts";
import { displayName } from "../../site_identity.ts";
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
  fix: (ctx) => ({
    what: "List your official profiles in sameAs",
    why:
      "sameAs is how AI systems connect your site to the same entity on Wikidata, Wikipedia and social networks, which raises confidence in citing you.",
    how: sameAsHow(ctx),
    effort: "S",
  }),
};

/**
 * The `sameAs` fix: the identity links the scan can vouch for (see same_as.ts), or a clearly
 * marked template when it has none, never other people's links found on the page.
 */
function sameAsHow(ctx: ScanContext): string {
  const links = identityLinks(ctx);
  const caution =
    "List only your organisation's own profiles: not share links, single posts or videos, other people's accounts or repositories, or things your pages write about.";
  if (!links.length) {
    return howText(
      `We found no profile on the page we could tie to ${
        displayName(ctx)
      } (a rel="me" link, or a profile whose name is your brand or domain), so this is a template: replace each FILL-IN with your own profile URL and drop the ones you do not have, then add it to your Organization node.`,
      codeBlock(`"sameAs": ${JSON.stringify(SAME_AS_FILL_IN, null, 2)}`, "json"),
      caution,
    );
  }
  const from = [
    links.some((l) => l.source === "markup") && "your markup already lists",
    links.some((l) => l.source === "rel-me") && 'your page marks with rel="me"',
    links.some((l) => l.source === "handle") && "carry your brand or domain name as their handle",
  ].filter(Boolean).join(", ");
  return howText(
    `Add to your Organization node the profiles we could tie to you (those ${from}):`,
    codeBlock(`"sameAs": ${JSON.stringify(links.map((l) => l.url), null, 2)}`, "json"),
    `Add any other official profile of yours (Wikidata, LinkedIn, ...) the page does not link to. ${caution}`,
  );
}
