/**
 * A change to several pages of the site, written in the site's own terms (issue 42): on a static
 * site (no engine in sight), pasted page by page as plain HTML, one step per page when each page
 * gets its own code; on a site whose engine the home page shows (lib/engines/visibility/site_engine.ts),
 * made once by hand in the template that renders them, saying which engine was seen and why,
 * with what one page should print and what to check afterwards. Never an API call: the steps are
 * for the site's owner.
 */
import type { ScanContext } from "./check.ts";
import { codeBlock } from "./fix_text.ts";
import { byHand, checkAfterwards, pasteInHead, pasteInMain } from "./fix_steps.ts";
import { type Engine, engineWords, siteEngine } from "./site_engine.ts";

/** What to paste where, for each page. */
export interface PageEdit {
  /** The pages (absolute URLs), at most a sample's worth. */
  urls: string[];
  /** Into the `<head>`, or near the top of the main text. */
  where: "head" | "main";
  /** The code one page gets (HTML). */
  code(url: string): string;
  /** What the template must print, in words ("the page's own URL as its canonical"). */
  template: string;
  /** What to check once the change is live, in words. */
  check: string;
  /** The engine's own template code, when there is one for this change. */
  engineCode?(engine: Engine): { code: string; lang: string; where: string } | null;
  /** Said after the sentence that places the code ("replacing its canonical"). */
  note?: string;
}

/** The steps of a change to several pages: static pastes, or the template by hand. */
export function pageEditSteps(ctx: ScanContext, edit: PageEdit): string[] {
  const engine = siteEngine(ctx);
  const note = edit.note ? ` (${edit.note})` : "";
  if (engine) {
    const own = edit.engineCode?.(engine) ?? null;
    return [
      byHand(
        `${engineWords(engine)}, so change the template that renders ${
          edit.urls.length > 1 ? "these pages" : "this page"
        } once: ${edit.template}${
          own ? ` In ${own.where}:` : `. On ${edit.urls[0]} it should print:`
        }`,
      ),
      own ? codeBlock(own.code, own.lang) : codeBlock(edit.code(edit.urls[0]), "html"),
      checkAfterwards(`${edit.check}`),
    ];
  }
  const place = edit.where === "head" ? pasteInHead : pasteInMain;
  const codes = edit.urls.map((u) => edit.code(u));
  if (codes.every((c) => c === codes[0])) {
    return [place(edit.urls, `${note}:`), codeBlock(codes[0], "html")];
  }
  return edit.urls.flatMap((u, i) => [place([u], `${note}:`), codeBlock(codes[i], "html")]);
}
