/** `content.lang`: the page declares its language on `<html lang>`. */
import { codeBlock, howText } from "../../fix_text.ts";
import { rootTag } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

export const lang: SignalDef = {
  id: "content.lang",
  pillar: "content",
  title: "Language declared",
  points: 2,
  scope: "page",
  learn: {
    what: '`<html lang="en">` states the language a page is written in.',
    why: "It tells AI systems which audience and which questions the page serves.",
    how: "We read the lang attribute of the html element.",
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const lang = ctx.facts.lang;
    const valid = lang !== null && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(lang);
    return {
      status: valid ? "pass" : lang ? "warn" : "fail",
      detail: valid
        ? `<html lang="${lang}">.`
        : lang
        ? `<html lang="${lang}"> is not a valid language tag.`
        : "The page does not declare its language (<html lang>).",
    };
  },
  fix: (ctx) => ({
    what: "Declare the page language",
    why: "The language tag tells AI systems which audience and which answers the page serves.",
    how: howText(
      rootTag(
        [ctx.pageUrl],
        `, replacing "en" with the page's language if it differs ("en-GB", "de", "fr-CA")${
          ctx.facts.lang ? ` (it now says lang="${ctx.facts.lang}")` : ""
        }:`,
      ),
      codeBlock('<html lang="en">', "html"),
    ),
    effort: "S",
  }),
};
