/**
 * A fix's instructions are written in a few sentence forms and read back from its text
 * (lib/engines/visibility/fix_steps.ts): every code block belongs to the sentence before it, so a tool
 * applies a fix exactly as an owner reads it (tests/fix_verified_test.ts does).
 */
import assert from "node:assert/strict";
import {
  addRobotsLines,
  byHand,
  checkAfterwards,
  createFile,
  pasteInFooter,
  pasteInHead,
  pasteInHeader,
  pasteInMain,
  readSteps,
  rootTag,
} from "../../lib/engines/visibility/fix_steps.ts";
import { codeBlock, howText } from "../../lib/engines/visibility/fix_text.ts";

const A = "https://a.test/";
const B = "https://a.test/blog/b";

Deno.test("fix steps - each sentence form reads back as its kind, with its pages and its code", () => {
  const how = howText(
    "Why this matters, in a sentence that places nothing.",
    pasteInHead(
      [A],
      "; everything in it is taken from your page. It includes what your current JSON-LD says: replace those blocks with it.",
    ),
    codeBlock("<script>1</script>", "html"),
    pasteInMain([A, B], " (replace each FILL-IN):"),
    codeBlock("<p>By x</p>", "html"),
    pasteInFooter([A]),
    codeBlock('<a href="/about">About</a>', "html"),
    pasteInHeader([B]),
    codeBlock('<a href="/contact">Contact</a>', "html"),
    rootTag([A]),
    codeBlock('<html lang="en">', "html"),
    createFile(`${A}llms.txt`, ", served as text/plain, from this skeleton:"),
    codeBlock("# A", "markdown"),
    addRobotsLines(`${A}robots.txt`, ", on a line of its own outside any group:"),
    codeBlock(`Sitemap: ${A}sitemap.xml`),
    byHand("let the crawlers through at your CDN."),
    checkAfterwards("that the crawler gets your page:"),
    codeBlock(`curl -I '${A}'`, "sh"),
  );
  const steps = readSteps(how);
  assert.deepEqual(steps.map((s) => [s.kind, s.urls, s.code.length]), [
    ["head", [A], 1],
    ["main", [A, B], 1],
    ["footer", [A], 1],
    ["header", [B], 1],
    ["root", [A], 1],
    ["file", [`${A}llms.txt`], 1],
    ["robots-add", [`${A}robots.txt`], 1],
    ["by-hand", [], 0],
    ["check", [], 1],
  ]);
  assert.equal(steps[0].replacesJsonLd, true, "the graph replaces the page's own blocks");
  assert.equal(steps[1].replacesJsonLd, undefined);
});

Deno.test("fix steps - robots.txt edits name their lines; a code block before any step is unplaced", () => {
  const steps = readSteps(
    howText(
      `In ${A}robots.txt, replace lines 4-6 (the group of GPTBot) with this corrected group, whole:`,
      codeBlock("User-agent: GPTBot\nAllow: /"),
      `In ${A}robots.txt, delete line 2 ("User-agent: ClaudeBot"): the group stays.`,
      `Then add this group at the top of ${A}robots.txt:`,
      codeBlock("User-agent: PerplexityBot\nAllow: /"),
    ),
  );
  assert.deepEqual(steps.map((s) => [s.kind, s.urls[0], s.lines ?? null, s.top ?? null]), [
    ["robots-replace", `${A}robots.txt`, [4, 6], null],
    ["robots-delete", `${A}robots.txt`, [2, 2], null],
    ["robots-add", `${A}robots.txt`, null, true],
  ]);
  const loose = readSteps(howText("Some advice.", codeBlock("<p>x</p>", "html")));
  assert.deepEqual(loose.map((s) => [s.kind, s.urls.length]), [["by-hand", 0]]);
});

Deno.test("fix steps - a merged fix's step headings place nothing; a URL keeps no sentence punctuation", () => {
  const steps = readSteps(
    howText(
      "Step 1: Publish a sitemap.xml.",
      createFile(`${A}sitemap.xml`, ". It lists:"),
      codeBlock("<urlset/>", "xml"),
    ),
  );
  assert.deepEqual(steps.map((s) => [s.kind, s.urls]), [["file", [`${A}sitemap.xml`]]]);
});
