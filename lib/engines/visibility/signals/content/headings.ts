/** `content.headings`: one h1 and a heading per section, so the page splits into passages. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const headings: SignalDef = {
  id: "content.headings",
  pillar: "content",
  title: "Clear heading outline",
  points: 4,
  scope: "page",
  learn: {
    what: "Headings (one `<h1>`, then `<h2>` and `<h3>`) give a page its outline.",
    why:
      "AI systems split pages into passages by heading; a clear outline helps them find and quote the right part.",
    how: "We check for exactly one h1 and at least two subheadings, in order.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const hs = ctx.facts.headings;
    const h1 = hs.filter((h) => h.level === 1);
    const sub = hs.filter((h) => h.level === 2 || h.level === 3);
    const evidence = hs.slice(0, 8).map((h) => `h${h.level}: ${h.text}`);
    if (h1.length === 1 && sub.length >= 2) {
      return { status: "pass", detail: `One h1 and ${sub.length} h2/h3 sections.`, evidence };
    }
    const problem = !hs.length
      ? "The page has no headings at all"
      : h1.length === 0
      ? "The page has no h1"
      : h1.length > 1
      ? `The page has ${h1.length} h1 headings`
      : sub.length
      ? `The page has only ${sub.length} h2/h3 section heading`
      : "The page has no h2/h3 section headings";
    return {
      status: hs.length ? "warn" : "fail",
      detail: `${problem}; AI systems use headings to split a page into quotable passages.`,
      evidence,
    };
  },
  fix: () => ({
    what: "Give the page one h1 and a heading per section",
    why:
      "Retrieval systems chunk pages by headings; a clear outline makes each passage findable on its own.",
    how: howText(
      byHand(
        "use exactly one <h1> naming what the page is about, then an <h2> for each section (ideally phrased the way people ask, e.g. <h2>How much does delivery cost?</h2>), with <h3> below when needed.",
      ),
      checkAfterwards("that the page has one <h1> and at least two <h2> or <h3> headings."),
    ),
    effort: "S",
  }),
};
