/** `technical.page_size`: the home page's HTML is small enough for crawlers to read whole. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeAnswer } from "../home_answer.ts";

export const pageSize: SignalDef = {
  id: "technical.page_size",
  pillar: "technical",
  title: "Page size crawlers read in full",
  points: 1,
  scope: "page",
  learn: {
    what: "The size of the home page's HTML.",
    why: "Crawlers stop reading very large pages part-way; what comes after is lost.",
    how: "We measure the HTML as downloaded.",
    sources: [SOURCES.googleCrawlers],
  },
  check(ctx) {
    const r = homeAnswer(ctx);
    const mb = (r.bytes / 1024 / 1024).toFixed(1);
    return {
      status: r.truncated ? "fail" : r.bytes > 2 * 1024 * 1024 ? "warn" : "pass",
      detail: r.truncated
        ? `The home page is larger than ${mb} MB and was cut; crawlers also stop reading large pages.`
        : `The home page HTML is ${(r.bytes / 1024).toFixed(0)} KB.`,
    };
  },
  fix: () => ({
    what: "Slim the HTML down",
    why:
      "Crawlers stop reading after a few MB (Googlebot at 2 MB of HTML); content past that point is invisible.",
    how: howText(
      byHand(
        "move inline scripts, styles and data blobs to external files, paginate long lists, and keep the HTML under 2 MB.",
      ),
      checkAfterwards("that the home page's HTML, as your server sends it, is under 2 MB."),
    ),
    effort: "M",
  }),
};
