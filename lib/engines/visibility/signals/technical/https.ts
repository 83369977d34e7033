/** `technical.https`: the home page ends up on an https:// address. */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeAnswer } from "../home_answer.ts";

export const https: SignalDef = {
  id: "technical.https",
  pillar: "technical",
  title: "Served over HTTPS",
  points: 3,
  scope: "page",
  learn: {
    what: "HTTPS encrypts the connection between the visitor and the site.",
    why: "Search engines and AI systems prefer secure sources.",
    how: "We check that the home page, after its redirects, is served from an https:// address.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const r = homeAnswer(ctx);
    const secure = new URL(r.finalUrl).protocol === "https:";
    return {
      status: secure ? "pass" : "fail",
      detail: secure
        ? "The page is served over HTTPS."
        : `The page ends up on ${r.finalUrl}, plain HTTP.`,
    };
  },
  fix: () => ({
    what: "Serve the site over HTTPS",
    why:
      "Search engines and AI systems prefer secure sources, and browsers mark HTTP pages as not secure.",
    how: howText(
      byHand(
        "get a free certificate (Let's Encrypt, or your host's or CDN's automatic TLS) and 301-redirect every http:// URL to https://.",
      ),
      checkAfterwards("that opening the http:// address of the home page ends on https://."),
    ),
    effort: "M",
  }),
};
