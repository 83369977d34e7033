/** content.lang: the language on <html lang>. */
import assert from "node:assert/strict";
import { lang } from "../../../../lib/engines/visibility/signals/content/lang.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const html = (attr: string) =>
  `<!doctype html><html${attr}><head><title>t</title></head><body></body></html>`;

Deno.test("content.lang - a valid tag passes, an invalid one warns, none fails", () => {
  assert.equal(reported(lang, pageCtx({ html: html(' lang="en-GB"') })).status, "pass");
  assert.equal(reported(lang, pageCtx({ html: html(' lang="english!"') })).status, "warn");
  const none = pageCtx({ html: html("") });
  assert.equal(reported(lang, none).status, "fail");
  assert.match(fixOf(lang, none)!.how, /<html lang="en">/);
});
