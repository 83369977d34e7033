/** `discovery.site_llms_links`: the links llms.txt lists answer 2xx. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { pointsFor, sampledSite } from "../../audit/site_view.ts";

export const siteLlmsLinks: SignalDef = {
  id: "discovery.site_llms_links",
  pillar: "discovery",
  title: "llms.txt links resolve",
  // As much as llms.txt itself is worth (discovery.llms_txt): an optional file's dead links must
  // not cost more than not having the file.
  points: 1,
  scope: "site",
  learn: {
    what: "llms.txt points AI systems to a site's most useful pages and documents.",
    why: "A link in llms.txt that fails sends an assistant to nothing.",
    how:
      "We request the links llms.txt lists (politely, with the audit's limits) and report those that do not answer 200.",
    sources: [SOURCES.llmstxt],
  },
  check(ctx) {
    const l = sampledSite(ctx, 0)?.audit.llmsLinks;
    if (!l || l.checked <= 0) return null;
    return {
      status: !l.broken.length ? "pass" : l.broken.length * 2 >= l.checked ? "fail" : "warn",
      detail: l.broken.length
        ? `${l.broken.length} of ${l.checked} llms.txt links checked (of ${l.total}) do not answer 2xx: ${
          l.broken.slice(0, 3).join(", ")
        }.`
        : `All ${l.checked} llms.txt links checked (of ${l.total}) answer 2xx.`,
      points: pointsFor(1, l.checked - l.broken.length, l.checked),
      evidence: l.broken,
    };
  },
  fix: (ctx) => ({
    what: "Fix the broken links in llms.txt",
    why: "llms.txt is the reading list you hand to AI systems: a dead link there is a dead end.",
    how: howText(
      byHand(
        `update or remove these links in ${new URL("/llms.txt", ctx.pageUrl).href}: ${
          ctx.audit!.llmsLinks!.broken.join(", ")
        }.`,
      ),
      checkAfterwards("that every link in llms.txt opens a page (HTTP 200)."),
    ),
    effort: "S",
  }),
};
