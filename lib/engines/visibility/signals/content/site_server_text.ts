/**
 * `content.site_server_text`: the sampled pages carry their text in the server HTML. A page is a
 * JavaScript shell by the same rule as the home page (client_rendering.ts: what rendering showed
 * when the scan rendered the page, else little text AND signs of client rendering); a short page
 * is thin, a warning with its own words. The detail says what the verdicts rest on. Owns the
 * `js_only_pages` gate (half or more of the pages read are shells).
 */
import { LITTLE_TEXT_WORDS } from "../../client_rendering.ts";
import { codeBlock, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import { serverText } from "./server_text.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import type { PageReport } from "../../audit/types.ts";
import {
  examples,
  pagesInWords,
  pointsFor,
  SAMPLE_HOW,
  sampledSite,
  share,
  templateCause,
} from "../../audit/site_view.ts";

/** Half or more of the pages read are JavaScript shells. */
export const JS_ONLY_PAGES_GATE: GateDef = {
  id: "js_only_pages",
  cap: 40,
  name: "the site's pages only show their text after JavaScript runs",
  why:
    "Half or more of the sampled pages send an empty shell; most AI crawlers do not run JavaScript, so they see those pages as empty.",
  when:
    `at least half of the pages read are JavaScript shells: rendered in a browser (a rendered scan), under ${LITTLE_TEXT_WORDS} words in the server HTML and ${LITTLE_TEXT_WORDS} or more after scripts; not rendered, under ${LITTLE_TEXT_WORDS} words **and** a sign of client rendering (short pages without one are thin, and never count)`,
  lift:
    `Fewer than half of the sampled pages are JavaScript shells: serve those templates' text in the server HTML (${LITTLE_TEXT_WORDS} words or more), by server-side rendering, static generation or a prerender step.`,
};

/** The pages the fix addresses. */
interface Data {
  shells: PageReport[];
  thin: PageReport[];
}

/** "/products/p1: 12 words; empty app mount node ...", or what rendering showed. */
function pageEvidence(p: PageReport): string {
  const r = p.rendering!;
  if (r.basis === "rendered") {
    return `${p.path}: ${r.words} words in the server HTML, ${r.renderedWords} rendered in a browser`;
  }
  return r.kind === "shell"
    ? `${p.path}: ${r.words} words; ${r.signs.join("; ")}`
    : `${p.path}: ${r.words} words, no sign of client rendering`;
}

/** What the verdicts on the pages read rest on: a browser's rendering, or the signs alone. */
function basisOf(read: PageReport[]): { rendered: number; note: string } {
  const rendered = read.filter((p) => p.rendering?.basis === "rendered").length;
  return {
    rendered,
    note: rendered === read.length
      ? "rendered in a browser: the text appears only after scripts run"
      : rendered
      ? `${rendered} of ${read.length} pages rendered in a browser; the others judged from the server HTML's signs`
      : "judged from the server HTML's signs: not rendered; a rendered scan shows what scripts add",
  };
}

export const siteServerText: SignalDef<Data> = {
  id: "content.site_server_text",
  pillar: "content",
  title: "Sampled pages carry their text in the server HTML",
  points: 4,
  scope: "site",
  gate: JS_ONLY_PAGES_GATE,
  learn: {
    what:
      "Some templates send an empty shell and build the page's text in the browser with JavaScript.",
    why:
      "Most AI crawlers read the HTML the server sends and do not run JavaScript, so they see those pages as empty.",
    how:
      `${SAMPLE_HOW}, and count the words each page's server HTML holds, outside scripts and templates. A page is a JavaScript shell when it holds under ${LITTLE_TEXT_WORDS} words and shows a sign of client rendering (an empty app mount node, script bundles from the site itself, <noscript> text, a framework's hydration data), the same rule as for the home page; a short page without any is thin. A rendered scan (docs/rendering.md) judges each page it rendered by its words before and after scripts instead. When half of the pages read are shells, the score is capped.`,
    sources: [SOURCES.javascript, SOURCES.helpful],
  },
  check(ctx) {
    const site = sampledSite(ctx);
    if (!site) return null;
    const { read } = site;
    const shells = read.filter((p) => p.rendering?.kind === "shell");
    const thin = read.filter((p) => p.rendering?.kind === "thin");
    const basis = basisOf(read);
    const status = shells.length * 2 >= read.length && shells.length
      ? "fail"
      : shells.length || thin.length
      ? "warn"
      : "pass";
    const thinRendered = thin.filter((p) => p.rendering?.basis === "rendered").length;
    const thinWhy = thinRendered === thin.length
      ? "in the rendered page too"
      : thinRendered
      ? "some in the rendered page too, the others with no sign of client rendering"
      : "and no sign of client rendering";
    const thinNote = thin.length
      ? `${
        share(thin.length, read.length)
      } read carry under ${LITTLE_TEXT_WORDS} words of text ${thinWhy} (thin pages, with little for an answer to quote): ${
        examples(thin)
      }.`
      : "";
    return {
      status,
      detail: shells.length
        ? `${
          share(shells.length, read.length)
        } read are JavaScript shells with no server-rendered text: ${
          examples(shells)
        } (${basis.note}). AI crawlers that do not run JavaScript see them empty. The evidence on ${
          shells[0].path
        }: ${pageEvidence(shells[0]).slice(shells[0].path.length + 2)}.${
          thinNote ? ` ${thinNote}` : ""
        }`
        : thin.length
        ? thinNote
        : `All ${read.length} pages read carry their text in the server HTML${
          basis.rendered === read.length
            ? " (rendering confirms it)"
            : basis.rendered
            ? ` (rendering confirms it for ${basis.rendered} of them)`
            : ""
        }.`,
      // A thin page costs half of its share (a warning), a shell all of it.
      points: pointsFor(4, read.length - shells.length - thin.length / 2, read.length),
      evidence: [...shells, ...thin].map(pageEvidence),
      gated: status === "fail",
      data: { shells, thin },
    };
  },
  fix(ctx, found) {
    const { shells, thin } = found.data!;
    if (!shells.length) {
      return {
        what: `Say more, in text, on ${pagesInWords(thin)}`,
        why:
          "Thin pages give AI systems little to quote or cite; a page meant to be found needs a few paragraphs of its own.",
        how: howText(
          byHand(
            `where these pages should be cited (${
              examples(thin)
            }), add a few paragraphs of plain HTML text: who you are, what you offer, for whom, where, and the facts people ask about. A short contact page is fine as it is.`,
          ),
          checkAfterwards(
            `that each of them holds at least ${LITTLE_TEXT_WORDS} words of text in the HTML your server sends.`,
          ),
        ),
        effort: "M",
      };
    }
    // The home page's own check asks for its rendering: the sampled pages' fix is the others'.
    const others = shells.filter((p) => p.type !== "home");
    if (!others.length) {
      const home = serverText.check(ctx);
      const fix = home ? serverText.fix(ctx, home) : null;
      if (fix) return fix;
    }
    const pages = others.length ? others : shells;
    return {
      what: `Render ${pagesInWords(pages)} on the server`,
      why:
        "AI crawlers read the HTML the server sends; a section rendered only in the browser looks empty to them.",
      how: howText(
        byHand(
          `serve pre-rendered HTML for ${
            pagesInWords(pages)
          } (server-side rendering or static generation in your framework, or a prerender step).`,
        ),
        checkAfterwards(
          "that this command prints more than 0 (the paragraphs in the HTML the server sends):",
        ),
        // Single-quoted, with any quote of the URL percent-encoded: the command runs as it reads.
        codeBlock(`curl -s '${pages[0].url.replace(/'/g, "%27")}' | grep -c '<p'`, "sh"),
      ),
      effort: "L",
      cause: templateCause(ctx, pages),
    };
  },
};
