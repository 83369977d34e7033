/** `technical.open_graph`: og:title, og:description and og:image describe the page for previews. */
import type { ScanContext } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { ownName } from "../../same_as.ts";
import { pasteInHead } from "../../fix_steps.ts";
import { pageSays } from "../../page_says.ts";

const WANTED = ["og:title", "og:description", "og:image"];

export const openGraph: SignalDef = {
  id: "technical.open_graph",
  pillar: "technical",
  title: "Open Graph metadata",
  points: 2,
  scope: "page",
  learn: {
    what: "og:title, og:description and og:image describe a page for link previews.",
    why: "Chat apps, assistants and social networks use them to label links to you.",
    how: "We look for the three tags.",
    sources: [SOURCES.snippet],
  },
  check(ctx) {
    const og = ctx.facts.openGraph;
    const have = WANTED.filter((k) => og[k]);
    return {
      status: have.length === 3 ? "pass" : have.length ? "warn" : "fail",
      detail: have.length === 3
        ? "og:title, og:description and og:image are set."
        : have.length
        ? `Missing ${WANTED.filter((k) => !og[k]).join(", ")}.`
        : "No Open Graph tags.",
      points: (2 * have.length) / 3,
    };
  },
  fix: (ctx) => ({
    what: "Add Open Graph tags",
    why: "Chat apps, AI assistants and social networks use them to preview and label links to you.",
    how: openGraphHow(ctx),
    effort: "S",
  }),
};

/**
 * The `how` of the Open Graph fix: tags from what the page states. og:image is offered only for an
 * image the page itself names (twitter:image); otherwise it is a separate fill-in.
 */
function openGraphHow(ctx: ScanContext): string {
  const og = ctx.facts.openGraph;
  const said = pageSays(ctx);
  const tag = (p: string, v: string) => `<meta property="${p}" content="${escapeHtml(v)}">`;
  const title = og["og:title"] ?? said.title ?? null;
  const description = og["og:description"] ?? said.description ?? null;
  let image = og["og:image"] ?? null;
  if (!image && ctx.facts.twitter["twitter:image"]) {
    try {
      image = new URL(ctx.facts.twitter["twitter:image"], ctx.pageUrl).href;
    } catch { /* not a URL */ }
  }
  const facts = [
    ...(og["og:title"] || !title ? [] : [tag("og:title", title)]),
    ...(og["og:description"] || !description ? [] : [tag("og:description", description)]),
    ...(og["og:image"] || !image ? [] : [tag("og:image", image)]),
    ...(og["og:url"] ? [] : [tag("og:url", ctx.pageUrl)]),
    ...(og["og:site_name"] || !ownName(ctx) ? [] : [tag("og:site_name", ownName(ctx)!)]),
  ];
  const fill = [
    ...(title ? [] : ['<meta property="og:title" content="FILL-IN: the page\'s title">']),
    ...(description
      ? []
      : ['<meta property="og:description" content="FILL-IN: one sentence on the page">']),
    ...(image ? [] : ['<meta property="og:image" content="FILL-IN: https URL of an image">']),
  ];
  return howText(
    facts.length > 0 && pasteInHead([ctx.pageUrl], " (taken from what your page already says):"),
    facts.length > 0 && codeBlock(facts.join("\n"), "html"),
    fill.length > 0 &&
      pasteInHead(
        [ctx.pageUrl],
        `${facts.length ? " these too" : ""}, replacing each FILL-IN${
          image
            ? ""
            : " (for og:image, the full URL of an image that exists on your site, ideally 1200x630 pixels)"
        }:`,
      ),
    fill.length > 0 && codeBlock(fill.join("\n"), "html"),
  );
}
