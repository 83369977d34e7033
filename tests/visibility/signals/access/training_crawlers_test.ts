/** access.training_crawlers: reported, never scored (blocking training is the owner's choice). */
import assert from "node:assert/strict";
import { trainingCrawlers } from "../../../../lib/engines/visibility/signals/access/training_crawlers.ts";
import { failed, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.training_crawlers - blocked training crawlers are info with no points and no fix", () => {
  const ctx = pageCtx({ robots: "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n" });
  const s = reported(trainingCrawlers, ctx);
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
  assert.match(s.detail, /blocks 2 of \d+ model-training crawlers \(GPTBot, Google-Extended\)/);
  assert.match(s.detail, /Google-Extended also keeps pages out of grounding/);
  assert.ok(s.evidence.includes("GPTBot: blocked"));
  assert.equal(fixOf(trainingCrawlers, ctx), null);
});

Deno.test("access.training_crawlers - all allowed is info too; robots.txt unread is unknown", () => {
  assert.match(
    reported(trainingCrawlers, pageCtx()).detail,
    /^All \d+ model-training crawlers may read/,
  );
  const s = reported(trainingCrawlers, pageCtx({ robots: failed("/robots.txt") }));
  assert.equal(s.status, "unknown");
});
