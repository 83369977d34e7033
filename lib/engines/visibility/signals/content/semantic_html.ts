/** `content.semantic_html`: landmarks tell the content from the menus and footers. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const semanticHtml: SignalDef = {
  id: "content.semantic_html",
  pillar: "content",
  title: "Semantic HTML landmarks",
  points: 2,
  scope: "page",
  learn: {
    what:
      "Elements such as `<main>`, `<article>`, `<nav>` and `<footer>` say which part of a page is the content and which is navigation.",
    why: "They help crawlers keep menus and footers out of what they quote.",
    how: "We look for main or article, and for the other landmarks.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const s = ctx.facts.semantic;
    const landmarks = (["main", "article", "header", "nav", "footer"] as const).filter((k) =>
      s[k] > 0
    );
    const hasMain = s.main > 0 || s.article > 0;
    return {
      status: hasMain && landmarks.length >= 3 ? "pass" : landmarks.length ? "warn" : "fail",
      detail: landmarks.length
        ? `Landmarks found: ${landmarks.join(", ")}${hasMain ? "" : " (no <main> or <article>)"}.`
        : "No <main>, <article>, <header>, <nav> or <footer>: crawlers cannot tell content from boilerplate.",
    };
  },
  fix: () => ({
    what: "Mark up the page's regions",
    why: "Landmarks let extractors keep the main content and drop menus and footers.",
    how: howText(
      byHand(
        "wrap the main content in <main> (and each post in <article>), the menu in <nav>, and use <header> and <footer> for the page's top and bottom.",
      ),
      checkAfterwards(
        "that the page has a <main> (or <article>) and at least two of <header>, <nav> and <footer>.",
      ),
    ),
    effort: "S",
  }),
};
