/**
 * `content.server_text`: the home page's text is in the HTML the server sends. Owns the
 * `js_only_content` gate, raised only by the shared JavaScript-shell rule (client_rendering.ts):
 * when the scan rendered the home page, what rendering showed; otherwise little text AND signs of
 * client rendering, and the finding says it was judged from those signs. A short page is thin,
 * never a JavaScript shell.
 */
import { codeBlock, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import {
  basisEvidence,
  EMPTY_MOUNT_SIGN,
  LITTLE_TEXT_WORDS,
  readRendering,
  renderedPageFor,
} from "../../client_rendering.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

/** The page's content exists only after JavaScript runs. */
export const JS_ONLY_GATE: GateDef = {
  id: "js_only_content",
  cap: 40,
  name: "the page's text only appears after JavaScript runs",
  why:
    "Most AI crawlers read the HTML the server sends and do not run JavaScript, so they see an empty page.",
  when:
    `rendered in a browser (a rendered scan): under ${LITTLE_TEXT_WORDS} words in the server HTML and ${LITTLE_TEXT_WORDS} or more after scripts; not rendered: under ${LITTLE_TEXT_WORDS} words in the server HTML **and** a sign of client rendering: an empty app mount node, script bundles from the site itself (an analytics tag from another site is not one), \`<noscript>\` text or a framework's hydration data (a short page without them is thin, not a shell)`,
  lift:
    `The home page's server HTML carries its text (${LITTLE_TEXT_WORDS} words or more of visible text), by server-side rendering, static generation or a prerender step.`,
};

/** Which remedy the finding calls for. */
interface Data {
  shell: boolean;
}

/**
 * The cause of a home page whose text appears only after scripts: how it is served. The sampled
 * pages' check offers this same fix when the home page is the only shell it found.
 */
export const HOME_RENDERING_CAUSE = {
  key: "home:rendering",
  title: "Render the home page on the server",
} as const;

export const serverText: SignalDef<Data> = {
  id: "content.server_text",
  pillar: "content",
  title: "Content is in the server HTML",
  points: 8,
  scope: "page",
  gate: JS_ONLY_GATE,
  learn: {
    what:
      "The text of a page can be in the HTML the server sends, or be added later by JavaScript in the browser.",
    why:
      "Most AI crawlers do not run JavaScript. Text that only appears after scripts run is invisible to them.",
    how:
      `We count the words of visible text in the HTML as served (no JavaScript run) and look for the signs of client rendering: an empty app mount node such as \`<div id="root"></div>\`, script bundles from the site itself (not another site's analytics or consent tags), \`<noscript>\` text, a framework's hydration data. Under ${LITTLE_TEXT_WORDS} words with such a sign caps the score; a short page without any is thin, not a JavaScript shell, and never caps it. A rendered scan (docs/rendering.md) replaces the signs with the evidence: the page rendered in a browser, its words counted before and after scripts.`,
    sources: [SOURCES.javascript, SOURCES.aiFeatures],
  },
  check(ctx) {
    const { text, appShell, scripts } = ctx.facts;
    // Evidence before a verdict: the rendered home page when the scan rendered it, else the signs.
    const rendering = readRendering(ctx.facts, renderedPageFor(ctx.render, ctx.pageUrl));
    const rendered = rendering.basis === "rendered";
    const evidence = [
      `${text.words} words of visible text`,
      `${scripts.count} scripts (${scripts.external} external)`,
      ...(appShell.emptyMountNode ? [EMPTY_MOUNT_SIGN] : []),
      ...appShell.markers.map((m) => `framework marker: ${m}`),
      ...(rendered ? [basisEvidence(rendering)] : []),
    ];
    const truncated = ctx.snapshot.home.ok && ctx.snapshot.home.result.truncated;
    if (text.words >= 300 || (truncated && text.words >= LITTLE_TEXT_WORDS)) {
      return {
        status: "pass",
        detail:
          `The server HTML carries ${text.words} words of readable text, so crawlers that do not run JavaScript see the content.`,
        evidence,
      };
    }
    if (rendering.kind === "shell") {
      return {
        status: "fail",
        detail: rendered
          ? `The server HTML holds only ${rendering.words} words; rendered in a browser, the page shows ${rendering.renderedWords} words: the content appears only after JavaScript runs. Most AI crawlers (GPTBot, ClaudeBot, PerplexityBot) do not run JavaScript, so they see an empty page.`
          : `The server HTML holds only ${text.words} words and shows signs of client rendering: ${
            rendering.signs.join("; ")
          }. The content appears only after JavaScript runs (judged from the server HTML's signs: the page was not rendered; a rendered scan shows what scripts add). Most AI crawlers (GPTBot, ClaudeBot, PerplexityBot) do not run JavaScript, so they see an empty page.`,
        // The evidence that raises the gate: how little text, each sign of client rendering, and
        // what the verdict rests on (a browser's rendering, or those signs alone).
        evidence: [
          `${text.words} words of visible text`,
          ...rendering.signs,
          basisEvidence(rendering),
        ],
        gated: true,
        data: { shell: true },
      };
    }
    const short = text.words < LITTLE_TEXT_WORDS;
    // Thin is a warning, never a gate (issue 28): a page under LITTLE_TEXT_WORDS words without
    // any sign of client rendering earns a quarter of the points, 80-299 words half.
    return {
      status: "warn",
      ...(short ? { points: 2 } : {}),
      detail: !short
        ? `The home page has only ${text.words} words of text; AI answers need substance to quote (aim for 300+ words that say what you do, for whom, and where).`
        : rendered
        ? `The home page has only ${text.words} words of text, and rendered in a browser it shows ${rendering.renderedWords}: a short page, not a JavaScript one. AI answers need substance to quote (aim for 300+ words that say what you do, for whom, and where).`
        : `The home page has only ${text.words} words of text, and its HTML shows no sign of client rendering (no app mount node, script bundle, <noscript> text or hydration data), so no browser adds more: AI answers need substance to quote (aim for 300+ words that say what you do, for whom, and where).`,
      evidence: short && !rendered ? [...evidence, basisEvidence(rendering)] : evidence,
      data: { shell: false },
    };
  },
  fix(ctx, found) {
    if (found.data?.shell) {
      return {
        what: "Render the content on the server",
        why:
          "AI crawlers read the HTML your server sends and do not execute JavaScript; a client-rendered shell looks empty to them.",
        how: howText(
          byHand(
            "serve pre-rendered HTML: use server-side rendering or static generation in your framework (Next.js: Server Components or getStaticProps; Nuxt: ssr: true; SvelteKit: prerender; Vite/React SPA: a prerender step such as vite-plugin-ssr or react-snap), or a prerender service that serves HTML to bots.",
          ),
          checkAfterwards("that the HTML your server sends holds paragraphs (a number above 0):"),
          codeBlock(`curl -s '${ctx.pageUrl.replace(/'/g, "%27")}' | grep -c '<p'`, "sh"),
        ),
        effort: "L",
        cause: HOME_RENDERING_CAUSE,
      };
    }
    return {
      what: "Say more, in text, on the home page",
      why:
        "Thin pages give AI systems nothing to quote or cite; they pick a richer source instead.",
      how: howText(
        byHand(
          "add a few paragraphs of plain HTML text: what you offer, for whom, where, prices or key facts, and answers to the questions customers ask (as <h2> questions followed by a short <p> answer).",
        ),
        checkAfterwards(
          "that the home page's HTML, as your server sends it, holds 300 words or more of visible text.",
        ),
      ),
      effort: "M",
    };
  },
};
