/** technical.title: a title of 10-70 characters. */
import assert from "node:assert/strict";
import { title } from "../../../../lib/engines/visibility/signals/technical/title.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const html = (t: string) => `<!doctype html><html><head>${t}</head><body></body></html>`;

Deno.test("technical.title - a good title passes; a short one warns; none fails with a template", () => {
  assert.equal(reported(title, pageCtx()).status, "pass");
  assert.equal(reported(title, pageCtx({ html: html("<title>Shop</title>") })).status, "warn");
  const none = pageCtx({ html: html("") });
  assert.equal(reported(title, none).detail, "The page has no <title>.");
  assert.match(fixOf(title, none)!.how, /<title>FILL-IN: what you offer, for whom \| /);
});
