/** access.robots_txt: each answer /robots.txt can give, its verdict and its fix. */
import assert from "node:assert/strict";
import { robotsTxt } from "../../../../lib/engines/visibility/signals/access/robots_txt.ts";
import { answer, failed, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.robots_txt - a readable file passes and names its address", () => {
  const s = reported(robotsTxt, pageCtx({ robots: "User-agent: *\nAllow: /\n" }));
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, ["https://shop.example/robots.txt"]);
});

Deno.test("access.robots_txt - lines that are not directives warn, and the fix says which to keep", () => {
  const ctx = pageCtx({ robots: "User-agent: *\nAllow: /\nfoo\nbar\nbaz\nqux\n" });
  assert.equal(reported(robotsTxt, ctx).status, "warn");
  assert.equal(fixOf(robotsTxt, ctx)!.what, "Clean up robots.txt");
});

Deno.test("access.robots_txt - no file warns and the fix offers a starter file", () => {
  const ctx = pageCtx({ robots: null });
  const s = reported(robotsTxt, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 1);
  const fix = fixOf(robotsTxt, ctx)!;
  assert.equal(fix.what, "Publish a robots.txt");
  assert.match(fix.how, /User-agent: \*\nAllow: \//);
});

Deno.test("access.robots_txt - a 5xx raises the blanket_disallow gate, with the status as evidence", () => {
  const ctx = pageCtx({
    robots: answer("/robots.txt", "oops", 503, { "content-type": "text/plain" }),
  });
  const s = reported(robotsTxt, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "blanket_disallow", cap: 20 });
  assert.deepEqual(s.evidence, ["https://shop.example/robots.txt: HTTP 503"]);
  assert.equal(fixOf(robotsTxt, ctx)!.what, "Make robots.txt answer 200 (or 404)");
});

Deno.test("access.robots_txt - an HTML page at /robots.txt warns; no answer is unknown, with no fix", () => {
  const soft = pageCtx({ robots: answer("/robots.txt", "<!doctype html><title>Home</title>") });
  assert.equal(reported(robotsTxt, soft).status, "warn");
  assert.equal(fixOf(robotsTxt, soft)!.what, "Serve a real robots.txt");
  const down = pageCtx({ robots: failed("/robots.txt") });
  assert.equal(reported(robotsTxt, down).status, "unknown");
  assert.equal(reported(robotsTxt, down).maxPoints, 0);
  assert.equal(fixOf(robotsTxt, down), null);
});
