/** `trust.about_contact`: the home page links to an About page and a Contact page. */
import { codeBlock, howText } from "../../fix_text.ts";
import { byHand, pasteInFooter, pasteInHeader } from "../../fix_steps.ts";
import { homeAnswer } from "../home_answer.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeUrl } from "../../site_identity.ts";

export const aboutContact: SignalDef = {
  id: "trust.about_contact",
  pillar: "trust",
  title: "About and contact pages linked",
  points: 3,
  scope: "page",
  learn: {
    what:
      "Links to an About page and a Contact page say who is behind the site and how to reach them.",
    why:
      "Clear ownership is one of the signs search engines use to judge whether a source is trustworthy.",
    how: "We look for links to about and contact pages on the home page.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const t = ctx.facts.trustLinks;
    const found = [t.about && `about: ${t.about}`, t.contact && `contact: ${t.contact}`].filter(
      (x): x is string => !!x,
    );
    return {
      status: found.length === 2 ? "pass" : found.length ? "warn" : "fail",
      detail: found.length === 2
        ? "The home page links to About and Contact pages."
        : `The home page does not link to ${missingPages(ctx.facts.trustLinks).join(" or ")}.`,
      evidence: found,
    };
  },
  fix(ctx) {
    const t = ctx.facts.trustLinks;
    const missing = missingPages(t);
    return {
      what: `Link ${missing.join(" and ")} from every page`,
      why:
        "AI systems (and Google's quality raters) look for who runs a site and how to reach them before trusting it as a source.",
      how: howText(
        byHand(
          `write ${
            [
              !t.about && `an About page at ${homeUrl(ctx)}about`,
              !t.contact &&
              `a Contact page at ${homeUrl(ctx)}contact`,
            ].filter(Boolean).join(" and ")
          }: who you are, since when and where; an address, e-mail and phone.`,
        ),
        // A page cut for its size keeps only its top: the links go in its header there.
        (homeAnswer(ctx).truncated ? pasteInHeader : pasteInFooter)(
          [ctx.pageUrl],
          `, and into the same place on every other page, the link${
            missing.length > 1 ? "s" : ""
          }:`,
        ),
        codeBlock(
          [
            !t.about && '<a href="/about">About us</a>',
            !t.contact && '<a href="/contact">Contact</a>',
          ]
            .filter(Boolean).join("\n"),
          "html",
        ),
      ),
      effort: "M",
    };
  },
};

/** "an About page", "a Contact page": what the home page does not link to. */
function missingPages(t: { about: string | null; contact: string | null }): string[] {
  return [!t.about && "an About page", !t.contact && "a Contact page"].filter(
    (x): x is string => !!x,
  );
}
