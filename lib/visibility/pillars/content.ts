/**
 * Pillar "Content extractability": can an AI system that does not run JavaScript read, segment and
 * quote the page? Text in the server HTML, headings, language, semantic structure, answer shapes.
 */
import { codeBlock, howText } from "../fix_text.ts";
import { type Check, type PillarDef, type ScanContext, scored, unscored } from "../check.ts";
import { jsVerdict, renderedPageFor } from "../js_shell.ts";

/** Score cap when the page's content exists only after JavaScript runs. */
export const JS_ONLY_GATE = { id: "js_only_content", cap: 40 } as const;

export const contentPillar: PillarDef = {
  id: "content",
  title: "Content extractability",
  weight: 20,
  checks: (ctx) => [
    serverText(ctx),
    headings(ctx),
    language(ctx),
    semantics(ctx),
    answerShaped(ctx),
    imageAlt(ctx),
  ],
};

export function serverText(ctx: ScanContext): Check {
  const { text, appShell, scripts } = ctx.facts;
  const title = "Content is in the server HTML";
  // The JavaScript-only verdict: the rendered home page when the scan rendered it, else the
  // server HTML's signs (lib/visibility/js_shell.ts).
  const js = jsVerdict(ctx.facts, renderedPageFor(ctx.render, ctx.pageUrl));
  const evidence = [
    `${text.words} words of visible text`,
    `${scripts.count} scripts (${scripts.external} external)`,
    ...(appShell.emptyMountNode ? ['empty app mount node (e.g. <div id="root"></div>)'] : []),
    ...appShell.markers.map((m) => `framework marker: ${m}`),
    ...js.evidence,
  ];
  const truncated = ctx.snapshot.home.ok && ctx.snapshot.home.result.truncated;
  if (text.words >= 300 || (truncated && text.words >= 80)) {
    return scored(
      "content.server_text",
      title,
      8,
      "pass",
      `The server HTML carries ${text.words} words of readable text, so crawlers that do not run JavaScript see the content.`,
      { evidence },
    );
  }
  if (js.kind === "js_only") {
    const seen = js.basis === "rendered"
      ? `rendered in a browser, the page shows ${
        renderedPageFor(ctx.render, ctx.pageUrl)?.rendered?.words ?? 0
      } words: the content appears only after JavaScript runs`
      : "the content appears only after JavaScript runs (judged from the server HTML's signs: the page was not rendered)";
    return scored(
      "content.server_text",
      title,
      8,
      "fail",
      `The server HTML holds only ${text.words} words; ${seen}. Most AI crawlers (GPTBot, ClaudeBot, PerplexityBot) do not run JavaScript, so they see an empty page.`,
      {
        evidence,
        gate: JS_ONLY_GATE,
        fix: {
          what: "Render the content on the server",
          why:
            "AI crawlers read the HTML your server sends and do not execute JavaScript; a client-rendered shell looks empty to them.",
          how: howText(
            "Serve pre-rendered HTML: use server-side rendering or static generation in your framework (Next.js: Server Components or getStaticProps; Nuxt: ssr: true; SvelteKit: prerender; Vite/React SPA: a prerender step such as vite-plugin-ssr or react-snap), or a prerender service that serves HTML to bots.",
            "Then check that the HTML your server sends holds paragraphs (a number above 0):",
            codeBlock(`curl -s '${ctx.pageUrl.replace(/'/g, "%27")}' | grep -c '<p'`, "sh"),
          ),
          effort: "L",
        },
      },
    );
  }
  return scored(
    "content.server_text",
    title,
    8,
    text.words >= 80 ? "warn" : "fail",
    `The home page has only ${text.words} words of text${
      js.basis === "rendered" && js.kind === "thin"
        ? " (rendered in a browser too: a short page, not a JavaScript one)"
        : ""
    }; AI answers need substance to quote (aim for 300+ words that say what you do, for whom, and where).`,
    {
      evidence,
      fix: {
        what: "Say more, in text, on the home page",
        why:
          "Thin pages give AI systems nothing to quote or cite; they pick a richer source instead.",
        how:
          "Add a few paragraphs of plain HTML text: what you offer, for whom, where, prices or key facts, and answers to the questions customers ask (as <h2> questions followed by a short <p> answer).",
        effort: "M",
      },
    },
  );
}

function headings(ctx: ScanContext): Check {
  const hs = ctx.facts.headings;
  const h1 = hs.filter((h) => h.level === 1);
  const sub = hs.filter((h) => h.level === 2 || h.level === 3);
  const evidence = hs.slice(0, 8).map((h) => `h${h.level}: ${h.text}`);
  const title = "Clear heading outline";
  if (h1.length === 1 && sub.length >= 2) {
    return scored(
      "content.headings",
      title,
      4,
      "pass",
      `One h1 and ${sub.length} h2/h3 sections.`,
      {
        evidence,
      },
    );
  }
  const problem = !hs.length
    ? "The page has no headings at all"
    : h1.length === 0
    ? "The page has no h1"
    : h1.length > 1
    ? `The page has ${h1.length} h1 headings`
    : sub.length
    ? `The page has only ${sub.length} h2/h3 section heading`
    : "The page has no h2/h3 section headings";
  return scored(
    "content.headings",
    title,
    4,
    hs.length ? "warn" : "fail",
    `${problem}; AI systems use headings to split a page into quotable passages.`,
    {
      evidence,
      fix: {
        what: "Give the page one h1 and a heading per section",
        why:
          "Retrieval systems chunk pages by headings; a clear outline makes each passage findable on its own.",
        how:
          "Use exactly one <h1> naming what the page is about, then an <h2> for each section (ideally phrased the way people ask, e.g. <h2>How much does delivery cost?</h2>), with <h3> below when needed.",
        effort: "S",
      },
    },
  );
}

function language(ctx: ScanContext): Check {
  const lang = ctx.facts.lang;
  const valid = lang !== null && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(lang);
  return scored(
    "content.lang",
    "Language declared",
    2,
    valid ? "pass" : lang ? "warn" : "fail",
    valid
      ? `<html lang="${lang}">.`
      : lang
      ? `<html lang="${lang}"> is not a valid language tag.`
      : "The page does not declare its language (<html lang>).",
    {
      fix: {
        what: "Declare the page language",
        why: "The language tag tells AI systems which audience and which answers the page serves.",
        how: howText(
          'Set the language of the page on its root element, replacing "en" with yours if it differs ("en-GB", "de", "fr-CA"):',
          codeBlock('<html lang="en">', "html"),
        ),
        effort: "S",
      },
    },
  );
}

function semantics(ctx: ScanContext): Check {
  const s = ctx.facts.semantic;
  const landmarks = (["main", "article", "header", "nav", "footer"] as const).filter((k) =>
    s[k] > 0
  );
  const hasMain = s.main > 0 || s.article > 0;
  return scored(
    "content.semantic_html",
    "Semantic HTML landmarks",
    2,
    hasMain && landmarks.length >= 3 ? "pass" : landmarks.length ? "warn" : "fail",
    landmarks.length
      ? `Landmarks found: ${landmarks.join(", ")}${hasMain ? "" : " (no <main> or <article>)"}.`
      : "No <main>, <article>, <header>, <nav> or <footer>: crawlers cannot tell content from boilerplate.",
    {
      fix: {
        what: "Mark up the page's regions",
        why: "Landmarks let extractors keep the main content and drop menus and footers.",
        how:
          "Wrap the main content in <main> (and each post in <article>), the menu in <nav>, and use <header> and <footer> for the page's top and bottom.",
        effort: "S",
      },
    },
  );
}

function answerShaped(ctx: ScanContext): Check {
  const f = ctx.facts;
  const evidence = [
    `${f.questionHeadings} question-style headings`,
    `${f.substantialParagraphs} substantial paragraphs`,
    `${f.lists} lists, ${f.tables} tables`,
    `${f.detailsCount} <details>, ${f.definitionLists} <dl>`,
  ];
  const faqLike = f.questionHeadings >= 2 || f.detailsCount >= 2 || f.definitionLists > 0;
  const structured = f.lists + f.tables >= 1 && f.substantialParagraphs >= 2;
  const status = faqLike && structured ? "pass" : faqLike || structured ? "warn" : "fail";
  return scored(
    "content.answer_shaped",
    "Answer-shaped content",
    4,
    status,
    status === "pass"
      ? "The page answers questions directly and uses lists or tables: easy for AI answers to lift."
      : faqLike
      ? "The page has question-style sections, but few lists, tables or substantial paragraphs."
      : structured
      ? "The page has lists and paragraphs, but no question-and-answer sections that match how people ask."
      : "The page has no question-and-answer sections, lists or tables for an AI answer to lift.",
    {
      evidence,
      fix: {
        what: "Add question-and-answer sections",
        why:
          "AI assistants answer questions; passages that state a question and answer it in 40-60 words are the ones they quote.",
        how:
          "Add an FAQ section: each question as an <h2>/<h3> (or <details><summary>), followed by a direct 1-3 sentence answer in a <p>; put comparisons and specs in <table>s and steps in <ol>.",
        effort: "M",
      },
    },
  );
}

function imageAlt(ctx: ScanContext): Check {
  const imgs = ctx.facts.images;
  if (!imgs.length) {
    return unscored("content.image_alt", "Images have alt text", "na", "The page has no images.");
  }
  const withAlt = imgs.filter((i) => i.alt !== null).length;
  const share = withAlt / imgs.length;
  return scored(
    "content.image_alt",
    "Images have alt text",
    2,
    share >= 0.9 ? "pass" : share >= 0.5 ? "warn" : "fail",
    `${withAlt} of ${imgs.length} images have an alt attribute.`,
    {
      points: 2 * share,
      evidence: imgs.filter((i) => i.alt === null).slice(0, 5).map((i) => `no alt: ${i.src}`),
      fix: {
        what: "Describe images with alt text",
        why:
          "AI systems read alt text, not pixels; it is how your products and diagrams enter their answers.",
        how:
          'Give every meaningful <img> an alt that says what it shows (e.g. alt="Ethiopian Yirgacheffe beans, 250 g bag"), and alt="" for decorative ones.',
        effort: "S",
      },
    },
  );
}
