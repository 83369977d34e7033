/** trust.about_contact: About and Contact pages linked from the home page. */
import assert from "node:assert/strict";
import { aboutContact } from "../../../../lib/engines/visibility/signals/trust/about_contact.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("trust.about_contact - both linked pass, naming the links", () => {
  const s = reported(aboutContact, pageCtx());
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, [
    "about: https://shop.example/about",
    "contact: https://shop.example/contact",
  ]);
});

Deno.test("trust.about_contact - a missing Contact page warns and the fix writes only that link", () => {
  const html =
    `<!doctype html><html><head><title>t</title></head><body><a href="/about">About us</a></body></html>`;
  const ctx = pageCtx({ html });
  const s = reported(aboutContact, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.detail, "The home page does not link to a Contact page.");
  const fix = fixOf(aboutContact, ctx)!;
  assert.equal(fix.what, "Link a Contact page from every page");
  assert.match(fix.how, /<a href="\/contact">Contact<\/a>/);
  assert.doesNotMatch(fix.how, /About us<\/a>/);
});
