/** `technical.viewport`: a mobile viewport meta tag is set. */
import { codeBlock, howText } from "../../fix_text.ts";
import { pasteInHead } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const viewport: SignalDef = {
  id: "technical.viewport",
  pillar: "technical",
  title: "Mobile viewport",
  points: 1,
  scope: "page",
  learn: {
    what: '`<meta name="viewport">` makes a page fit a phone screen.',
    why:
      "Google indexes the mobile version of pages; a page that is not mobile-ready is a weaker source.",
    how: "We look for the viewport meta tag.",
    sources: [SOURCES.helpful],
  },
  check: (ctx) => ({
    status: ctx.facts.hasViewport ? "pass" : "warn",
    detail: ctx.facts.hasViewport ? "A viewport meta tag is set." : "No viewport meta tag.",
    impact: "low",
  }),
  fix: (ctx) => ({
    what: "Declare a mobile viewport",
    why: "Search engines index the mobile version of pages first.",
    how: howText(
      pasteInHead([ctx.pageUrl]),
      codeBlock('<meta name="viewport" content="width=device-width, initial-scale=1">', "html"),
    ),
    effort: "S",
  }),
};
