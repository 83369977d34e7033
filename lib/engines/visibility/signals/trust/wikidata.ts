/** `trust.wikidata`: a Wikidata item whose official website (P856) is this domain. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { displayName, homeUrl } from "../../site_identity.ts";
import { offSiteFinding } from "../off_site.ts";

export const wikidata: SignalDef = {
  id: "trust.wikidata",
  pillar: "trust",
  title: "Wikidata entity",
  points: 3,
  scope: "page",
  learn: {
    what:
      "Wikidata is the open database of entities (people, organisations, places) behind Wikipedia.",
    why:
      "Knowledge graphs and AI systems use it to tell who is who; an item with your official website (P856) ties your domain to the entity.",
    how: "We ask Wikidata for an item whose official website is this domain, then by name.",
    sources: [SOURCES.wikidata],
  },
  check: (ctx) => offSiteFinding(ctx, "wikidata", 3),
  fix: (ctx) => ({
    what: "Create or complete a Wikidata item for your organisation",
    why:
      "Wikidata is the entity database AI systems and Google's Knowledge Graph draw on; an item with your official website (P856) ties your domain to the entity.",
    how: howText(
      byHand(
        `if you meet Wikidata's notability policy, create an item at https://www.wikidata.org/wiki/Special:NewItem for "${
          displayName(ctx)
        }" with: instance of (P31), official website (P856) = ${
          homeUrl(ctx)
        }, and your social profile identifiers. Then add the item's URL to the sameAs of your JSON-LD Organization (see the structured-data fixes).`,
      ),
      checkAfterwards(
        `that searching Wikidata for ${homeUrl(ctx)} finds your item (its official website, P856).`,
      ),
    ),
    effort: "M",
  }),
};
