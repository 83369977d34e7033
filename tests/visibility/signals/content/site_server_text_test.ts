/**
 * content.site_server_text: sampled pages judged by the same JavaScript-shell rule as the home
 * page; thin pages are a warning of their own, never a shell, never a gate.
 */
import assert from "node:assert/strict";
import { siteServerText } from "../../../../lib/engines/visibility/signals/content/site_server_text.ts";
import type { Rendering } from "../../../../lib/engines/visibility/client_rendering.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { fixOf, pageCtx, pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";

const shell: Rendering = {
  kind: "shell",
  basis: "heuristic",
  renderedWords: null,
  words: 0,
  signs: [
    'empty app mount node (e.g. <div id="root"></div>)',
    "1 script bundle from the site itself (<script src>)",
  ],
};
const thin: Rendering = {
  kind: "thin",
  basis: "heuristic",
  words: 45,
  renderedWords: null,
  signs: [],
};

Deno.test("content.site_server_text - all pages with text pass", () => {
  const s = evaluate(siteServerText, siteCtx([pageReport("/"), pageReport("/a")]))!.signal;
  assert.equal(s.status, "pass");
});

Deno.test("content.site_server_text - short static pages are thin: a warning that never mentions JavaScript or gates", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/about", { rendering: thin }),
    pageReport("/contact", { rendering: { ...thin, words: 20 } }),
  ]);
  const s = evaluate(siteServerText, ctx)!.signal;
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.doesNotMatch(s.detail, /javascript/i);
  assert.match(s.detail, /^2 of 3 pages read carry under 80 words of text/);
  assert.deepEqual(s.evidence, [
    "/about: 45 words, no sign of client rendering",
    "/contact: 20 words, no sign of client rendering",
  ]);
  // Half a page's share each: 4 * (3 - 1) / 3.
  assert.equal(s.points, 2.7);
  const fix = fixOf(siteServerText, ctx)!;
  assert.doesNotMatch(`${fix.what} ${fix.why} ${fix.how}`, /javascript|render/i);
});

Deno.test("content.site_server_text - half the pages shells raise the gate, each shell with its evidence", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/products/a", { rendering: shell }),
    pageReport("/products/b", { rendering: shell }),
    pageReport("/about", { rendering: thin }),
  ]);
  const s = evaluate(siteServerText, ctx)!.signal;
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "js_only_pages", cap: 40 });
  assert.ok(s.evidence.includes(
    '/products/a: 0 words; empty app mount node (e.g. <div id="root"></div>); 1 script bundle from the site itself (<script src>)',
  ));
  assert.match(s.detail, /^2 of 4 pages read are JavaScript shells/);
  assert.match(s.detail, /1 of 4 pages read carry under 80 words/);
  assert.equal(
    fixOf(siteServerText, ctx)!.what,
    "Render your pages under /products/ (such as /products/a) on the server",
  );
});

Deno.test("content.site_server_text - one shell among many warns without a gate; no sample, no signal", () => {
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/products/a", { rendering: shell }),
    pageReport("/b"),
    pageReport("/c"),
  ]);
  const s = evaluate(siteServerText, ctx)!.signal;
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.equal(siteServerText.check(pageCtx()), null);
});

Deno.test("content.site_server_text - rendered pages: the rendering's verdict, and the detail says what it rests on", () => {
  const rendered = (kind: Rendering["kind"], words: number, after: number): Rendering => ({
    kind,
    basis: "rendered",
    words,
    renderedWords: after,
    signs: ["1 script bundle from the site itself (<script src>)"],
  });
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/products/a", { rendering: rendered("shell", 0, 412) }),
    pageReport("/products/b", { rendering: rendered("shell", 3, 380) }),
    pageReport("/about", { rendering: rendered("thin", 40, 42) }),
  ]);
  const s = evaluate(siteServerText, ctx)!.signal;
  assert.equal(s.status, "fail");
  assert.ok(
    s.evidence.includes("/products/a: 0 words in the server HTML, 412 rendered in a browser"),
  );
  assert.match(
    s.detail,
    /\(3 of 4 pages rendered in a browser; the others judged from the server HTML's signs\)/,
  );
  assert.match(s.detail, /under 80 words of text in the rendered page too/);
  // Every page rendered, none a shell: the pass says rendering confirms it.
  const all = siteCtx([
    pageReport("/", { rendering: rendered("text", 400, 410) }),
    pageReport("/b", { rendering: rendered("text", 300, 300) }),
  ]);
  assert.match(evaluate(siteServerText, all)!.signal.detail, /\(rendering confirms it\)\.$/);
  // Not rendered: the shells' detail says they were judged from the signs.
  const heuristic = siteCtx([pageReport("/"), pageReport("/x", { rendering: shell })]);
  assert.match(
    evaluate(siteServerText, heuristic)!.signal.detail,
    /judged from the server HTML's signs: not rendered/,
  );
});
