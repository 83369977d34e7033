/** `technical.title`: the page has a descriptive `<title>` of 10-70 characters. */
import { clip, type ScanContext } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { displayName } from "../../site_identity.ts";
import { pasteInHead } from "../../fix_steps.ts";
import { pageSays } from "../../page_says.ts";

export const title: SignalDef = {
  id: "technical.title",
  pillar: "technical",
  title: "Descriptive title",
  points: 2,
  scope: "page",
  learn: {
    what: "The `<title>` of a page, shown in browser tabs and search results.",
    why: "It is the label AI answers and search results use when they cite the page.",
    how: "We check that the title exists and is between 10 and 70 characters.",
    sources: [SOURCES.titleLink],
  },
  check(ctx) {
    const t = ctx.facts.title;
    const len = t?.length ?? 0;
    const good = len >= 10 && len <= 70;
    return {
      status: !t ? "fail" : good ? "pass" : "warn",
      detail: !t
        ? "The page has no <title>."
        : good
        ? `"${clip(t, 80)}" (${len} characters).`
        : `The title is ${len} characters long ("${clip(t, 80)}"); aim for 10-70.`,
    };
  },
  fix: (ctx) => ({
    what: "Write a descriptive title",
    why: "The title is the label AI answers and search results use when they cite the page.",
    how: titleHow(ctx),
    effort: "S",
  }),
};

/** The `how` of the title fix: a template, since only the owner can say what the page offers. */
function titleHow(ctx: ScanContext): string {
  const said = pageSays(ctx);
  const own = said.renderedOnly.includes("title") && said.title &&
    said.title.length >= 10 && said.title.length <= 70;
  return howText(
    pasteInHead(
      [ctx.pageUrl],
      own
        ? " (your page writes this title with scripts; crawlers that do not run them need it in the HTML the server sends):"
        : ", with a title of 10-70 characters that says what the page offers and for whom, then your name (replace the FILL-IN):",
    ),
    codeBlock(
      own
        ? `<title>${escapeHtml(said.title!)}</title>`
        : `<title>FILL-IN: what you offer, for whom | ${escapeHtml(displayName(ctx))}</title>`,
      "html",
    ),
  );
}
