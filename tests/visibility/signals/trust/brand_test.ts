/** trust.brand: one name in the title, og:site_name and structured data. */
import assert from "node:assert/strict";
import { brand } from "../../../../lib/engines/visibility/signals/trust/brand.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const html = (title: string, site: string) =>
  `<!doctype html><html><head><title>${title}</title><meta property="og:site_name" content="${site}"></head><body></body></html>`;

Deno.test("trust.brand - the same name everywhere passes; legal forms do not split it", () => {
  assert.equal(
    reported(brand, pageCtx({ html: html("Coffee | Shop Example", "Shop Example Ltd") })).status,
    "pass",
  );
});

Deno.test("trust.brand - two names warn, and the fix picks one; none stated fails", () => {
  const ctx = pageCtx({ html: html("Coffee | Bean Co", "Shop Example") });
  const s = reported(brand, ctx);
  assert.equal(s.status, "warn");
  assert.match(s.detail, /names itself differently/);
  assert.match(fixOf(brand, ctx)!.how, /og:site_name/);
  const bare = `<!doctype html><html><head><title>Home</title></head><body></body></html>`;
  assert.equal(reported(brand, pageCtx({ html: bare })).status, "fail");
});

Deno.test("trust.brand - a title that is the only statement of the name passes (issue 42)", () => {
  // A small site names itself in its title and nowhere else: one name, nothing contradicts it.
  const html =
    `<!doctype html><html><head><title>Little Oven Bakery</title></head><body></body></html>`;
  const s = reported(brand, pageCtx({ html }));
  assert.equal(s.status, "pass", s.detail);
  assert.match(s.detail, /"Little Oven Bakery" in its title/);
});

Deno.test("trust.brand - no name anywhere: the fix is the home page's graph, which states it", () => {
  const bare = `<!doctype html><html><head><title>Home</title></head><body></body></html>`;
  const fix = fixOf(brand, pageCtx({ html: bare }))!;
  assert.equal(fix.cause?.key, "home:json-ld");
  assert.match(fix.how, /^Paste into the <head> of /);
});

Deno.test("trust.brand - two names: the fix keeps the title's words and never asks for a page topic", () => {
  const ctx = pageCtx({ html: html("Fresh roasted coffee | Bean Co", "Shop Example") });
  const how = fixOf(brand, ctx)!.how;
  // The title keeps what it says of the page; only its brand part changes.
  assert.match(how, /<title>Fresh roasted coffee \| Shop Example<\/title>/);
  assert.doesNotMatch(how, /FILL-IN/);
  assert.match(how, /Afterwards, check /);
});
