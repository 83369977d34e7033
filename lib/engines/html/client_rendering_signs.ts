/**
 * The one rule for what a page's server HTML says about client rendering, from its one-pass facts
 * alone (no browser): a page is a JavaScript shell when it has little text AND its HTML shows a
 * sign of client rendering: an empty app mount node (`<div id="root"></div>`, `#app`,
 * `#__next`...), script bundles from the site itself (an external script from another site, such
 * as an analytics tag, a consent banner or a chat widget, is not the page's application code),
 * `<noscript>` text (the "enable JavaScript" notice), or a framework's hydration data
 * (`__NEXT_DATA__`, `__NUXT__`, `ng-version`, `data-reactroot`...). A short page without any of
 * those is thin: too little to quote, but nothing a browser adds.
 *
 * Both services read it: the visibility checker's JavaScript-shell verdicts
 * (lib/engines/visibility/client_rendering.ts, which also weighs a rendered view when there is one) and
 * the Schema Markup Generator's summary of a page it did not render (lib/engines/schema/scan.ts).
 */
import type { PageFacts } from "./types.ts";

/** Fewer words of visible text than this in the server HTML is "little text". */
export const LITTLE_TEXT_WORDS = 80;

/** The evidence line of an empty mount node (as the report has always worded it). */
export const EMPTY_MOUNT_SIGN = 'empty app mount node (e.g. <div id="root"></div>)';

/** What the server HTML shows: its kind, its words and the signs of client rendering found. */
export interface ServerRendering {
  /** `shell`: little text and a sign of client rendering; `thin`: little text, no sign. */
  kind: "shell" | "thin" | "text";
  /** Words of visible text in the server HTML. */
  words: number;
  /** The signs of client rendering found in the server HTML, as the reports name them. */
  signs: string[];
}

/** Reads a page's server HTML for the signs of client rendering. */
export function serverRendering(facts: PageFacts): ServerRendering {
  const { text, appShell, scripts, noscriptWords } = facts;
  // Scripts from other sites (analytics, consent banners, chat widgets) are not the page's own
  // application code: a short static page with an analytics tag is thin, not a shell.
  const bundles = scripts.external - scripts.otherSites;
  const signs = [
    ...(appShell.emptyMountNode ? [EMPTY_MOUNT_SIGN] : []),
    ...(bundles > 0
      ? [`${bundles} script bundle${bundles > 1 ? "s" : ""} from the site itself (<script src>)`]
      : []),
    ...(noscriptWords > 0 ? [`${noscriptWords} words of <noscript> text`] : []),
    ...appShell.markers.map((m) => `framework marker: ${m}`),
  ];
  const words = text.words;
  const kind = words >= LITTLE_TEXT_WORDS ? "text" : signs.length ? "shell" : "thin";
  return { kind, words, signs };
}
