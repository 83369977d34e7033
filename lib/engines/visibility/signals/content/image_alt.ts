/** `content.image_alt`: the home page's images say in words what they show. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const imageAlt: SignalDef = {
  id: "content.image_alt",
  pillar: "content",
  title: "Images have alt text",
  points: 2,
  scope: "page",
  learn: {
    what: "The alt attribute describes an image in words.",
    why: "Crawlers read words, not pictures; alt text tells them what an image shows.",
    how: "We count the images of the home page that have an alt attribute.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const imgs = ctx.facts.images;
    if (!imgs.length) return { status: "na", detail: "The page has no images." };
    const withAlt = imgs.filter((i) => i.alt !== null).length;
    const share = withAlt / imgs.length;
    return {
      status: share >= 0.9 ? "pass" : share >= 0.5 ? "warn" : "fail",
      detail: `${withAlt} of ${imgs.length} images have an alt attribute.`,
      points: 2 * share,
      evidence: imgs.filter((i) => i.alt === null).slice(0, 5).map((i) => `no alt: ${i.src}`),
    };
  },
  fix: () => ({
    what: "Describe images with alt text",
    why:
      "AI systems read alt text, not pixels; it is how your products and diagrams enter their answers.",
    how: howText(
      byHand(
        'give every meaningful <img> an alt that says what it shows (e.g. alt="Ethiopian Yirgacheffe beans, 250 g bag"), and alt="" for decorative ones.',
      ),
      checkAfterwards("that at least 9 in 10 of the page's <img> elements have an alt attribute."),
    ),
    effort: "S",
  }),
};
