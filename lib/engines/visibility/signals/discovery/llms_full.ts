/** `discovery.llms_full`: /llms-full.txt, the site's content as one Markdown file (optional). */
import { noFix, type SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { isOk, looksLikeHtml } from "../../snapshot.ts";

export const llmsFull: SignalDef = {
  id: "discovery.llms_full",
  pillar: "discovery",
  title: "llms-full.txt (optional)",
  points: 1,
  scope: "page",
  learn: {
    what: "llms-full.txt is the companion of llms.txt with the full text of the key pages.",
    why: "Some AI tools load it in one go instead of crawling; it is optional.",
    how: "We fetch /llms-full.txt and note whether it is there.",
    sources: [SOURCES.llmstxt],
  },
  check(ctx) {
    const out = ctx.snapshot.llmsFull;
    if (!out.ok) return { status: "unknown", detail: "llms-full.txt could not be fetched." };
    const present = isOk(out) &&
      !looksLikeHtml(out.result.headers["content-type"], out.result.body) &&
      out.result.body.trim().length > 0;
    return present
      ? { status: "pass", detail: "llms-full.txt offers the site's content as one Markdown file." }
      : {
        status: "info",
        detail:
          "No llms-full.txt. It is optional: useful for documentation-style sites that want their full text in one file.",
      };
  },
  fix: noFix,
};
