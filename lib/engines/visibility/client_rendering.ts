/**
 * The one rule that decides whether a page's server HTML is a JavaScript shell, for the home page
 * (content.server_text) and for every sampled page of the site audit (content.site_server_text)
 * alike. Evidence first:
 *
 * - **Rendered** (the scan asked for the rendered view, lib/engines/render/, and a browser rendered the
 *   page): the verdict is what rendering showed ({@link renderedVerdict}): under
 *   {@link LITTLE_TEXT_WORDS} words in the server HTML and that many or more after scripts is a
 *   shell; short in both views is thin; otherwise the text is in the server HTML.
 * - **Heuristic** (not rendered: no render asked, no browser, or this page's render failed): a
 *   page is a shell only when it has little text AND its HTML shows signs of client rendering: an
 *   empty app mount node (`<div id="root"></div>`, `#app`, `#__next`...), script bundles (external
 *   scripts from the site itself: one from another site, such as an analytics tag, a consent
 *   banner or a chat widget, is not the page's application code), `<noscript>` text (the "enable
 *   JavaScript" notice), or a framework's hydration data
 *   (`__NEXT_DATA__`, `__NUXT__`, `ng-version`, `data-reactroot`...). A short page without any of
 *   those is "thin": too little to quote, but nothing a browser adds, so it never raises a
 *   JavaScript gate. The verdict says it was judged from those signs ({@link basisEvidence}).
 */
import type { PageFacts } from "../html/types.ts";
import type { RenderedPage, RenderVerdict, RenderView } from "../render/view.ts";
import {
  EMPTY_MOUNT_SIGN,
  LITTLE_TEXT_WORDS,
  serverRendering,
} from "../html/client_rendering_signs.ts";

// The server HTML's signs are one rule shared with the Schema Markup Generator.
export { EMPTY_MOUNT_SIGN, LITTLE_TEXT_WORDS };
/** Scripts add "a large share" of a rendered page when they add at least this many words... */
const PARTLY_MIN_WORDS = 80;
/** ...and at least this share of the rendered text. */
const PARTLY_MIN_SHARE = 0.3;

/** What a page's server HTML (and its rendering, when there is one) says about how it renders. */
export interface Rendering {
  /** `shell`: the text appears only after scripts; `thin`: little text either way; `text`. */
  kind: "shell" | "thin" | "text";
  /**
   * What the verdict rests on: `rendered`, a browser ran the page; `heuristic`, the server HTML's
   * signs alone (the page was not rendered).
   */
  basis: "rendered" | "heuristic";
  /** Words of visible text in the server HTML. */
  words: number;
  /** Words of visible text after scripts ran; null when the page was not rendered. */
  renderedWords: number | null;
  /** The signs of client rendering found in the server HTML, as the report names them. */
  signs: string[];
}

/**
 * Classifies a page: from its rendered view when a browser rendered it, else from the signs of
 * client rendering in its facts (lib/engines/html/client_rendering_signs.ts).
 */
export function readRendering(facts: PageFacts, rendered?: RenderedPage | null): Rendering {
  const { kind, words, signs } = serverRendering(facts);
  return withRendered({ kind, basis: "heuristic", words, renderedWords: null, signs }, rendered);
}

/**
 * A verdict with a page's rendered view: the rendering's verdict when the page was rendered
 * (both views exist), the verdict as it was otherwise (a failed or skipped render concludes
 * nothing).
 */
export function withRendered(server: Rendering, rendered?: RenderedPage | null): Rendering {
  if (rendered?.state !== "rendered" || !rendered.raw || !rendered.rendered) return server;
  const kind = rendered.verdict === "js_only"
    ? "shell"
    : rendered.verdict === "thin"
    ? "thin"
    : "text";
  return {
    ...server,
    kind,
    basis: "rendered",
    // The words of the server HTML the renderer fetched: the verdict compares those two counts.
    words: rendered.raw.words,
    renderedWords: rendered.rendered.words,
  };
}

/**
 * The rendered verdict of a page from its two word counts (server HTML, rendered DOM): the rule
 * the rendering step applies to every page it renders (lib/engines/render/compare.ts takes it as given).
 */
export function renderedVerdict(rawWords: number, renderedWords: number): RenderVerdict {
  if (rawWords < LITTLE_TEXT_WORDS) {
    return renderedWords >= LITTLE_TEXT_WORDS ? "js_only" : "thin";
  }
  const added = renderedWords - rawWords;
  if (added >= PARTLY_MIN_WORDS && added >= PARTLY_MIN_SHARE * renderedWords) return "partly_js";
  return "server";
}

/** One evidence line: what the verdict rests on, in plain words. */
export function basisEvidence(r: Rendering): string {
  return r.basis === "rendered"
    ? `rendered in a browser: ${r.renderedWords} words after scripts, ${r.words} in the server HTML`
    : "not rendered: judged from the server HTML alone";
}

/** The rendered view of a URL, if the scan rendered it (fragment and trailing slash ignored). */
export function renderedPageFor(view: RenderView | undefined, url: string): RenderedPage | null {
  if (!view) return null;
  const key = pageKey(url);
  return view.pages.find((p) => pageKey(p.url) === key) ?? null;
}

function pageKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href.replace(/\/$/, "");
  } catch {
    return url;
  }
}
