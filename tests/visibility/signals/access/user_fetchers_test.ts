/** access.user_fetchers: robots.txt verdicts for assistants fetching a page for a person. */
import assert from "node:assert/strict";
import { userFetchers } from "../../../../lib/engines/visibility/signals/access/user_fetchers.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.user_fetchers - all allowed passes", () => {
  const s = reported(userFetchers, pageCtx({ robots: "User-agent: *\nAllow: /\n" }));
  assert.equal(s.status, "pass");
  assert.equal(s.points, 4);
});

Deno.test("access.user_fetchers - a blocked fetcher whose vendor may ignore robots.txt costs half, and the detail says so", () => {
  const ctx = pageCtx({ robots: "User-agent: ChatGPT-User\nDisallow: /\n" });
  const s = reported(userFetchers, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /may not follow robots\.txt \(ChatGPT-User\)/);
  const fix = fixOf(userFetchers, ctx)!;
  assert.equal(fix.what, "Allow ChatGPT-User in robots.txt");
  // The products named are those the record shows affected: ChatGPT's fetcher, nobody else.
  assert.match(
    fix.why,
    /^ChatGPT cannot fetch a page a person asks about: robots\.txt tells its crawler/,
  );
  assert.doesNotMatch(fix.why, /Google|Copilot|Perplexity|Claude/);
});

Deno.test("access.user_fetchers - every major fetcher blocked fails but never raises a gate", () => {
  const robots =
    "User-agent: ChatGPT-User\nUser-agent: Claude-User\nUser-agent: Perplexity-User\nDisallow: /\n";
  const s = reported(userFetchers, pageCtx({ robots }));
  assert.equal(s.status, "fail");
  assert.equal(s.gate, null);
});
