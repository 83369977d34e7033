/** `technical.canonical`: one canonical link, pointing at this site. */
import type { ScanContext } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import { pasteInHead } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const canonical: SignalDef = {
  id: "technical.canonical",
  pillar: "technical",
  title: "Canonical URL",
  points: 2,
  scope: "page",
  learn: {
    what: '`<link rel="canonical">` names the one address of a page that has several.',
    why: "It makes crawlers credit one URL instead of splitting signals between copies.",
    how: "We read the canonical link and check that it points to this page on this site.",
    sources: [SOURCES.canonical],
  },
  check(ctx) {
    const c = ctx.facts.canonical;
    const page = new URL(ctx.pageUrl);
    let status: "pass" | "warn" = "warn";
    let detail = "The page has no canonical link.";
    if (c) {
      const cu = new URL(c);
      const bare = (h: string) => h.replace(/^www\./, "");
      if (bare(cu.hostname) !== bare(page.hostname)) {
        detail =
          `The canonical link points to another site (${c}): crawlers may credit that site instead.`;
      } else if (ctx.facts.canonicalCount > 1) {
        detail =
          `The page has ${ctx.facts.canonicalCount} canonical links; crawlers may ignore them all.`;
      } else {
        status = "pass";
        detail = `Canonical: ${c}.`;
      }
    }
    return { status, detail };
  },
  fix: (ctx) => ({
    what: "Declare one canonical URL",
    why:
      "The canonical tells crawlers which URL to index and cite when the same page is reachable several ways.",
    how: canonicalHow(ctx),
    effort: "S",
    // The sampled pages' canonical check offers this same fix when the home page is the one
    // page it finds wrong: one tag, one fix.
    cause: { key: "home:canonical", title: "Declare one canonical URL" },
  }),
};

/**
 * The `how` of the canonical fix. A canonical to another site is right on a syndicated copy (it
 * credits the original), so that case explains the choice instead of asserting one answer.
 */
function canonicalHow(ctx: ScanContext): string {
  const c = ctx.facts.canonical;
  const self = codeBlock(`<link rel="canonical" href="${escapeHtml(ctx.pageUrl)}">`, "html");
  const page = new URL(ctx.pageUrl);
  const bare = (h: string) => h.replace(/^www\./, "");
  if (c && bare(new URL(c).hostname) !== bare(page.hostname)) {
    return howText(
      `It depends on whose page this is. If it is a syndicated copy of a page first published at ${c}, the canonical is right: keep it, and AI systems will credit the original. If this page is the original, point the canonical at itself instead.`,
      pasteInHead([ctx.pageUrl], " (it replaces the canonical there):"),
      self,
    );
  }
  if (ctx.facts.canonicalCount > 1) {
    return howText(
      `Keep a single <link rel="canonical"> in the <head> (templates and plugins often add a second one), pointing at the URL you want cited.`,
      pasteInHead([ctx.pageUrl], " (it replaces every canonical there):"),
      self,
    );
  }
  return howText(pasteInHead([ctx.pageUrl]), self);
}
