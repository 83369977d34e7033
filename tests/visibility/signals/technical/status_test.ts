/** technical.status: 200, after at most one redirect. */
import assert from "node:assert/strict";
import { status } from "../../../../lib/engines/visibility/signals/technical/status.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("technical.status - direct 200 passes; two redirects warn with a one-hop fix", () => {
  assert.equal(reported(status, pageCtx()).detail, "The home page answered 200 directly.");
  const ctx = pageCtx();
  if (ctx.snapshot.home.ok) {
    ctx.snapshot.home.result.url = "http://shop.example/";
    ctx.snapshot.home.result.redirects = [
      { status: 301, url: "http://shop.example/", location: "https://shop.example" },
      { status: 301, url: "https://shop.example", location: "https://shop.example/" },
    ];
  }
  const s = reported(status, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.evidence.length, 3);
  assert.equal(
    fixOf(status, ctx)!.how,
    "By hand: redirect http://shop.example/ straight to https://shop.example/ with a single 301.\n\nAfterwards, check that http://shop.example/ answers one 301 to https://shop.example/, which answers 200.",
  );
});
