/**
 * content.server_text: the home page's text in the server HTML; the JavaScript gate only with
 * little text AND signs of client rendering (the shared rule), each sign named as evidence.
 */
import assert from "node:assert/strict";
import { serverText } from "../../../../lib/engines/visibility/signals/content/server_text.ts";
import { gateText } from "../../../../lib/engines/visibility/learn.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";
import type { RenderedPage, RenderView } from "../../../../lib/engines/render/view.ts";
import type { ScanContext } from "../../../../lib/engines/visibility/check.ts";

const html = (body: string, head = "") =>
  `<!doctype html><html lang="en"><head><title>App</title>${head}</head><body>${body}</body></html>`;

Deno.test("content.server_text - 300 words or more pass", () => {
  const s = reported(serverText, pageCtx());
  assert.equal(s.status, "pass");
  assert.match(s.detail, /^The server HTML carries \d+ words of readable text/);
});

Deno.test("content.server_text - a client-rendered shell fails, raises the gate and names every sign", () => {
  const ctx = pageCtx({
    html: html(
      '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>',
      '<script type="module" src="/assets/index.js"></script>',
    ),
  });
  const s = reported(serverText, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "js_only_content", cap: 40 });
  assert.deepEqual(s.evidence, [
    "0 words of visible text",
    'empty app mount node (e.g. <div id="root"></div>)',
    "1 script bundle from the site itself (<script src>)",
    "9 words of <noscript> text",
    "not rendered: judged from the server HTML alone",
  ]);
  assert.match(s.detail, /judged from the server HTML's signs: the page was not rendered/);
  assert.match(s.detail, /shows signs of client rendering: empty app mount node/);
  assert.equal(fixOf(serverText, ctx)!.what, "Render the content on the server");
  assert.match(gateText("js_only_content")!.lift, /80 words or more/);
});

Deno.test("content.server_text - a short page without any sign is thin: no gate, no JavaScript claim", () => {
  const ctx = pageCtx({
    html: html("<main><h1>Hello</h1><p>We bake bread in the old town.</p></main>"),
  });
  const s = reported(serverText, ctx);
  // A warning (issue 28: thin is a warning, never a gate), worth a quarter of the points.
  assert.equal(s.status, "warn");
  assert.equal(s.points, s.maxPoints / 4);
  assert.equal(s.gate, null);
  assert.match(s.detail, /shows no sign of client rendering/);
  assert.doesNotMatch(s.detail, /JavaScript/);
  assert.equal(fixOf(serverText, ctx)!.what, "Say more, in text, on the home page");
});

Deno.test("content.server_text - 80 to 300 words warn, whatever scripts the page loads", () => {
  const words = `<p>${"bread ".repeat(120)}</p>`;
  const s = reported(serverText, pageCtx({ html: html(words, '<script src="/a.js"></script>') }));
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
});

/** The scan's rendered view of its home page: `raw` words in the server HTML, `after` rendered. */
function withRender(
  ctx: ScanContext,
  raw: number,
  after: number,
  verdict: RenderedPage["verdict"],
) {
  const view = (words: number) => ({
    words,
    headings: 0,
    h1: null,
    internalLinks: 0,
    title: null,
    description: null,
    canonical: null,
    robots: null,
    structuredTypes: [],
  });
  const render: RenderView = {
    status: "rendered",
    reason: null,
    browser: "local Chromium",
    budgetMs: 20_000,
    elapsedMs: 900,
    crawlers: [],
    pages: [{
      url: ctx.pageUrl,
      state: "rendered",
      reason: null,
      raw: view(raw),
      rendered: view(after),
      verdict,
      onlyAfterScripts: null,
      changed: [],
      requests: { served: 1, refused: 0, failed: 0, refusedKinds: {} },
      missed: "",
    }],
  };
  return { ...ctx, render };
}

const SHELL = html(
  '<div id="root"></div>',
  '<script type="module" src="/assets/index.js"></script>',
);

Deno.test("content.server_text - rendered: the shell verdict is the rendering's, and says so", () => {
  const s = reported(serverText, withRender(pageCtx({ html: SHELL }), 0, 412, "js_only"));
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "js_only_content", cap: 40 });
  assert.match(s.detail, /rendered in a browser, the page shows 412 words/);
  assert.ok(
    s.evidence.includes("rendered in a browser: 412 words after scripts, 0 in the server HTML"),
  );
});

Deno.test("content.server_text - rendered: a page with every sign of a shell that renders short is thin, no gate", () => {
  // The heuristic alone would call it a shell (empty mount node, a bundle); the browser shows it
  // is short either way, so no JavaScript gate.
  const s = reported(serverText, withRender(pageCtx({ html: SHELL }), 0, 30, "thin"));
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /rendered in a browser it shows 30: a short page, not a JavaScript one/);
  assert.equal(
    fixOf(serverText, withRender(pageCtx({ html: SHELL }), 0, 30, "thin"))!.what,
    "Say more, in text, on the home page",
  );
});

Deno.test("content.server_text - a render that failed concludes nothing: the signs decide, and it says so", () => {
  const ctx = withRender(pageCtx({ html: SHELL }), 0, 412, "js_only");
  ctx.render!.pages[0] = {
    ...ctx.render!.pages[0],
    state: "failed",
    rendered: null,
    verdict: "unknown",
  };
  const s = reported(serverText, ctx);
  assert.deepEqual(s.gate, { id: "js_only_content", cap: 40 });
  assert.ok(s.evidence.includes("not rendered: judged from the server HTML alone"));
});
