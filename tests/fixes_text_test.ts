/**
 * Code and prose kept apart: `fix.how` stays one string, its pasteable pieces in fenced code
 * blocks; the web report renders each block with its own Copy button and the prose as
 * paragraphs; the CLI prints the code without fences; MCP hands the text over intact.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { codeBlock, codeBlocksOf, howText, parseHow } from "../lib/engines/visibility/fix_text.ts";
import { formatHow } from "../lib/engines/visibility/format.ts";
import { FixHow } from "../lib/features/visibility/views/visibility_report.tsx";
import { fixResult } from "./helpers/fix_context.ts";
import { assertWellFormedHow } from "./helpers/fix_checks.ts";

Deno.test("[fixes text] code blocks round-trip exactly, whatever they hold", () => {
  const codes = [
    "User-agent: GPTBot\nAllow: /",
    "a line with ``` inside\n```\nand a fence of its own",
    "  indented\n\n\ttabbed, with a blank line",
  ];
  const how = howText(
    "Step one:",
    codeBlock(codes[0]),
    "Step two:",
    codeBlock(codes[1], "md"),
    codeBlock(codes[2]),
  );
  assert.deepEqual(codeBlocksOf(how), codes);
  assert.deepEqual(parseHow(how).map((p) => p.kind), ["prose", "code", "prose", "code", "code"]);
  assert.deepEqual(parseHow("Just advice, no code."), [{
    kind: "prose",
    text: "Just advice, no code.",
  }]);
});

const SITE = {
  url: "https://acme-tools.test/",
  html:
    `<!doctype html><html lang="en"><head><title>Acme Tools | Acme</title></head><body><main><h1>Tools</h1><a href="/guides/">Guides</a></main></body></html>`,
  robots: "User-agent: *\nDisallow: /\n",
};

Deno.test("[fixes text] every fix of a weak site is steps and fenced code", () => {
  const r = fixResult(SITE);
  assert.ok(r.topIssues.length > 10);
  for (const issue of r.topIssues) {
    assert.equal(typeof issue.fix.how, "string", "how stays a string (the API contract)");
    assertWellFormedHow(issue);
    // Prose never carries a whole HTML element or robots.txt line to paste: those are code.
    for (const part of parseHow(issue.fix.how)) {
      if (part.kind !== "prose") continue;
      assert.doesNotMatch(
        part.text,
        /^\s*<(meta|link|script|title)\b/m,
        `${issue.id}: ${part.text}`,
      );
      assert.doesNotMatch(part.text, /^(User-agent|Allow|Disallow|Sitemap):/m, `${issue.id}`);
    }
  }
  const withCode = r.topIssues.filter((i) => codeBlocksOf(i.fix.how).length > 0);
  assert.ok(withCode.length >= 8, `${withCode.length} fixes carry code`);
});

Deno.test("[fixes text] the web report gives each code block its own Copy button", () => {
  const how = howText(
    "Paste into the <head>:",
    codeBlock('<meta name="description" content="FILL-IN">', "html"),
    "Then add to robots.txt:",
    codeBlock("Sitemap: https://acme-tools.test/sitemap.xml"),
    "Done.",
  );
  const html = renderToString(FixHow({ how, n: 3 }));
  assert.equal([...html.matchAll(/<button[^>]*data-copy="fix-3-code-\d"/g)].length, 2);
  assert.match(
    html,
    /<code id="fix-3-code-1">&lt;meta name=&quot;description&quot; content=&quot;FILL-IN&quot;><\/code>/,
  );
  assert.match(
    html,
    /<code id="fix-3-code-2">Sitemap: https:\/\/acme-tools.test\/sitemap.xml<\/code>/,
  );
  assert.match(html, /<p\s+class="fix-step">Paste into the &lt;head>:<\/p>/);
  assert.doesNotMatch(html, /```/);
  const advice = renderToString(FixHow({ how: "Get a certificate and redirect to https.", n: 4 }));
  assert.doesNotMatch(advice, /copy-button|<pre/, "plain advice is prose, with no Copy button");
});

Deno.test("[fixes text] the CLI prints code apart from prose, without fences", () => {
  const how = howText(
    "Add this group:",
    codeBlock("User-agent: OAI-SearchBot\nAllow: /"),
    "Checked.",
  );
  const plain = formatHow(how, (_c, s) => s);
  assert.deepEqual(plain, [
    "       Add this group:",
    "",
    "         User-agent: OAI-SearchBot",
    "         Allow: /",
    "",
    "       Checked.",
  ]);
  const colored = formatHow(how, (_c, s) => `<c>${s}</c>`);
  assert.ok(colored.includes("         <c>Allow: /</c>"), "only code is coloured");
  assert.ok(colored.includes("       Checked."));
});
