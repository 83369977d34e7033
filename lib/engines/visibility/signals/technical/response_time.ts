/** `technical.response_time`: the home page's first byte arrives quickly. */
import { codeBlock, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeAnswer } from "../home_answer.ts";

export const responseTime: SignalDef = {
  id: "technical.response_time",
  pillar: "technical",
  title: "Fast first byte",
  points: 2,
  scope: "page",
  learn: {
    what: "How long the server takes to start answering.",
    why: "AI crawlers and assistants fetching live work on tight time budgets.",
    how:
      "We measure the time to the first byte of the home page: under 800 ms passes, over 2 s fails.",
    sources: [SOURCES.googleCrawlers],
  },
  check(ctx) {
    const r = homeAnswer(ctx);
    const ms = Math.round(r.ttfbMs);
    return {
      status: ms < 800 ? "pass" : ms < 2000 ? "warn" : "fail",
      detail: `The home page's first byte arrived after ${ms} ms${
        r.redirects.length ? " (redirects included)" : ""
      }.`,
    };
  },
  fix: (ctx) => ({
    what: "Answer faster",
    why:
      "AI crawlers and user-fetch agents work on tight time budgets; slow pages are skipped or cut.",
    how: howText(
      byHand(
        "cache the HTML at a CDN or in the application, and aim for a time to first byte under 800 ms.",
      ),
      checkAfterwards("that the first byte of the home page arrives within 800 ms:"),
      codeBlock(
        `curl -so /dev/null -w '%{time_starttransfer}\\n' '${ctx.pageUrl.replace(/'/g, "%27")}'`,
        "sh",
      ),
    ),
    effort: "M",
  }),
};
