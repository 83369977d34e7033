/** `technical.description`: the page has a meta description of 50-170 characters. */
import { clip, type ScanContext } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import { pasteInHead } from "../../fix_steps.ts";
import { pageSays } from "../../page_says.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const description: SignalDef = {
  id: "technical.description",
  pillar: "technical",
  title: "Meta description",
  points: 2,
  scope: "page",
  learn: {
    what: '`<meta name="description">` summarises the page in a sentence or two.',
    why: "Search engines and assistants use it to describe the page when they link it.",
    how: "We check that it exists and is between 50 and 170 characters.",
    sources: [SOURCES.snippet],
  },
  check(ctx) {
    const d = ctx.facts.metaDescription;
    const len = d?.length ?? 0;
    const good = len >= 50 && len <= 170;
    return {
      status: !d ? "fail" : good ? "pass" : "warn",
      detail: !d
        ? "The page has no meta description."
        : good
        ? `${len} characters.`
        : `The description is ${len} characters; aim for 50-170.`,
      evidence: d ? [clip(d, 170)] : [],
    };
  },
  fix: (ctx) => ({
    what: "Write a meta description",
    why: "Many AI systems and search engines use it as the page's summary when they cite it.",
    how: descriptionHow(ctx),
    effort: "S",
  }),
};

/**
 * The `how` of the meta description fix: the description the rendered page shows, when scripts
 * write one the server HTML lacks (the page's own words), else a FILL-IN.
 */
function descriptionHow(ctx: ScanContext): string {
  const said = pageSays(ctx);
  const own = said.renderedOnly.includes("description") && said.description;
  const len = (ctx.facts.metaDescription ?? "").length;
  return howText(
    pasteInHead(
      [ctx.pageUrl],
      own
        ? " (your page writes this description with scripts; crawlers that do not run them need it in the HTML the server sends):"
        : `, replacing the FILL-IN with one or two sentences (50-170 characters) on what the page offers and for whom${
          len ? ` (your current one has ${len})` : ""
        }:`,
    ),
    codeBlock(
      `<meta name="description" content="${
        own ? escapeHtml(own) : "FILL-IN: one or two sentences on what the page offers and for whom"
      }">`,
      "html",
    ),
  );
}
