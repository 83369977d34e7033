/** `trust.common_crawl`: Common Crawl's latest crawl holds captures of the domain. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { offSiteFinding } from "../off_site.ts";

export const commonCrawl: SignalDef = {
  id: "trust.common_crawl",
  pillar: "trust",
  title: "In Common Crawl",
  points: 2,
  scope: "page",
  learn: {
    what: "Common Crawl is a free public archive of the web, collected by its crawler CCBot.",
    why: "Many language models learn from it; a site missing from it is missing from them.",
    how: "We ask the Common Crawl index for captures of the domain in its latest crawls.",
    sources: [SOURCES.commonCrawl],
  },
  check: (ctx) => offSiteFinding(ctx, "commonCrawl", 2, "low"),
  fix: () => ({
    what: "Make sure Common Crawl can crawl your site",
    why:
      "Common Crawl's open web archive feeds the training data of most language models; sites missing from it are less known to them.",
    how: howText(
      byHand(
        "whether to let CCBot in is your choice: Common Crawl feeds model training, so if you have opted out of AI training, keep blocking it. If you want to be in it, allow CCBot in robots.txt and at your CDN, link your site from other sites, and list your pages in a sitemap named in robots.txt; captures appear in the next monthly crawl.",
      ),
      checkAfterwards(
        "after the next monthly crawl that https://index.commoncrawl.org/ lists captures of your domain.",
      ),
    ),
    effort: "M",
  }),
};
