/** technical.response_time: the median time to first byte, with a margin past each threshold. */
import assert from "node:assert/strict";
import { responseTime } from "../../../../lib/engines/visibility/signals/technical/response_time.ts";
import { answer, fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";
import { probedCrawlers } from "../../../../lib/engines/visibility/edge_probe.ts";

Deno.test("technical.response_time - under 800 ms passes, under 2 s warns, slower fails, each past a 25% margin", () => {
  const status = (ttfbMs: number) => reported(responseTime, pageCtx({ home: { ttfbMs } })).status;
  assert.equal(status(300), "pass");
  // Near a threshold the verdict holds: our own load may add that much.
  assert.equal(status(900), "pass");
  assert.equal(status(1200), "warn");
  assert.equal(status(2400), "warn");
  const slow = pageCtx({ home: { ttfbMs: 2600 } });
  const s = reported(responseTime, slow);
  assert.equal(s.status, "fail");
  assert.match(
    s.detail,
    /^The home page's first byte arrived after 2600 ms \(the median of \d+ answers\)\.$/,
  );
  assert.equal(fixOf(responseTime, slow)!.what, "Answer faster");
});

Deno.test("technical.response_time - the median of every answer of the page: one slow answer (our load) does not decide", () => {
  const html = page();
  // Our own fetch was slow (3 s, say the scanner was busy); every probe that got the page was quick.
  const quick = answer("/", html, 200, {}, 90);
  const edge = Object.fromEntries(probedCrawlers().map((c) => [c.token, quick]));
  const s = reported(responseTime, pageCtx({ html, home: { ttfbMs: 3000 }, edge, browser: quick }));
  assert.equal(s.status, "pass");
  assert.match(s.evidence[0], /^median first byte: 90 ms \(\d+ samples, from 90 to 3000 ms\)$/);
  // Refusals (a CDN's quick 403) are not samples of the page.
  const refused = answer("/", "Forbidden", 403, {}, 5);
  const slowPage = pageCtx({
    html,
    home: { ttfbMs: 2600 },
    browser: answer("/", html, 200, {}, 2600),
    edge: Object.fromEntries(probedCrawlers().map((c) => [c.token, refused])),
  });
  assert.equal(reported(responseTime, slowPage).status, "fail");
});
