/**
 * content.server_text: the home page's text in the server HTML; the JavaScript gate only with
 * little text AND signs of client rendering (the shared rule), each sign named as evidence.
 */
import assert from "node:assert/strict";
import { serverText } from "../../../../lib/visibility/signals/content/server_text.ts";
import { gateText } from "../../../../lib/visibility/learn.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

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
    "1 script bundle (<script src>)",
    "9 words of <noscript> text",
  ]);
  assert.match(s.detail, /shows signs of client rendering: empty app mount node/);
  assert.equal(fixOf(serverText, ctx)!.what, "Render the content on the server");
  assert.match(gateText("js_only_content")!.lift, /80 words or more/);
});

Deno.test("content.server_text - a short page without any sign is thin: no gate, no JavaScript claim", () => {
  const ctx = pageCtx({
    html: html("<main><h1>Hello</h1><p>We bake bread in the old town.</p></main>"),
  });
  const s = reported(serverText, ctx);
  assert.equal(s.status, "fail");
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
