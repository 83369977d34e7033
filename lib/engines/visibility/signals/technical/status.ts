/** `technical.status`: the home page answers 200 after at most one redirect. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeAnswer } from "../home_answer.ts";

export const status: SignalDef = {
  id: "technical.status",
  pillar: "technical",
  title: "Home page answers 200 with a short redirect chain",
  points: 3,
  scope: "page",
  learn: {
    what: 'The home page should answer "200 OK", after at most a redirect or two.',
    why: "Crawlers give up on errors and long redirect chains.",
    how: "We follow the redirects of the home page and record each hop and the final status.",
    sources: [SOURCES.googleCrawlers],
  },
  check(ctx) {
    const r = homeAnswer(ctx);
    const hops = r.redirects.length;
    return {
      status: hops <= 1 ? "pass" : "warn",
      detail: hops === 0
        ? `The home page answered ${r.status} directly.`
        : `The home page answered ${r.status} after ${hops} redirect${hops > 1 ? "s" : ""}.`,
      evidence: [
        ...r.redirects.map((h) => `${h.status} ${h.url} -> ${h.location}`),
        `${r.status} ${r.finalUrl}`,
      ],
    };
  },
  fix(ctx) {
    const r = homeAnswer(ctx);
    return {
      what: "Redirect in one hop",
      why: "Each redirect costs crawl time and some crawlers give up after a few hops.",
      how: howText(
        byHand(`redirect ${r.url} straight to ${r.finalUrl} with a single 301.`),
        checkAfterwards(`that ${r.url} answers one 301 to ${r.finalUrl}, which answers 200.`),
      ),
      effort: "S",
    };
  },
};
