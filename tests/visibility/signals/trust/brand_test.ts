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
