/** content.semantic_html: landmarks tell content from boilerplate. */
import assert from "node:assert/strict";
import { semanticHtml } from "../../../../lib/engines/visibility/signals/content/semantic_html.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const html = (body: string) =>
  `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

Deno.test("content.semantic_html - main with header and footer passes; no main warns; none fails", () => {
  assert.equal(reported(semanticHtml, pageCtx()).status, "pass");
  const noMain = reported(
    semanticHtml,
    pageCtx({ html: html("<header></header><footer></footer>") }),
  );
  assert.equal(noMain.status, "warn");
  assert.match(noMain.detail, /no <main> or <article>/);
  const bare = pageCtx({ html: html("<div>text</div>") });
  assert.equal(reported(semanticHtml, bare).status, "fail");
  assert.equal(fixOf(semanticHtml, bare)!.what, "Mark up the page's regions");
});
