/**
 * The one rule that decides whether a page's server HTML is a JavaScript shell, for the home page
 * (content.server_text) and for every sampled page of the site audit (content.site_server_text)
 * alike. A page is a shell only when it has little text AND its HTML shows signs of client
 * rendering: an empty app mount node (`<div id="root"></div>`, `#app`, `#__next`...), script
 * bundles (external scripts), `<noscript>` text (the "enable JavaScript" notice), or a framework's
 * hydration data (`__NEXT_DATA__`, `__NUXT__`, `ng-version`, `data-reactroot`...). A short page
 * without any of those is "thin": too little to quote, but nothing a browser adds, so it never
 * raises a JavaScript gate.
 */
import type { PageFacts } from "../html/types.ts";

/** Fewer words of visible text than this in the server HTML is "little text". */
export const LITTLE_TEXT_WORDS = 80;

/** What the server HTML says about how the page is rendered. */
export interface Rendering {
  /** `shell`: little text and signs of client rendering; `thin`: little text, no such sign. */
  kind: "shell" | "thin" | "text";
  /** Words of visible text in the server HTML. */
  words: number;
  /** The signs of client rendering found, as the report names them (any kind). */
  signs: string[];
}

/** The evidence line of an empty mount node (as the report has always worded it). */
export const EMPTY_MOUNT_SIGN = 'empty app mount node (e.g. <div id="root"></div>)';

/** Reads the signs of client rendering in a page's facts and classifies the page. */
export function readRendering(facts: PageFacts): Rendering {
  const { text, appShell, scripts, noscriptWords } = facts;
  const signs = [
    ...(appShell.emptyMountNode ? [EMPTY_MOUNT_SIGN] : []),
    ...(scripts.external > 0
      ? [`${scripts.external} script bundle${scripts.external > 1 ? "s" : ""} (<script src>)`]
      : []),
    ...(noscriptWords > 0 ? [`${noscriptWords} words of <noscript> text`] : []),
    ...appShell.markers.map((m) => `framework marker: ${m}`),
  ];
  const words = text.words;
  const kind = words >= LITTLE_TEXT_WORDS ? "text" : signs.length ? "shell" : "thin";
  return { kind, words, signs };
}
