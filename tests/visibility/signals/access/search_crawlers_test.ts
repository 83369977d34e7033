/** access.search_crawlers: robots.txt verdicts for the AI search crawlers, weighted by reach. */
import assert from "node:assert/strict";
import { searchCrawlers } from "../../../../lib/engines/visibility/signals/access/search_crawlers.ts";
import { crawlersByRole } from "../../../../lib/engines/visibility/crawlers.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.search_crawlers - every search crawler allowed passes with all 20 points", () => {
  const s = reported(searchCrawlers, pageCtx({ robots: "User-agent: *\nAllow: /\n" }));
  assert.equal(s.status, "pass");
  assert.equal(s.points, 20);
  assert.equal(s.evidence.length, crawlersByRole("search").length);
});

Deno.test("access.search_crawlers - one blocked crawler warns (high impact) and the fix names it, checked on the file", () => {
  const ctx = pageCtx({
    robots: "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
  });
  const check = evaluate(searchCrawlers, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.impact, "high");
  assert.ok(check.signal.points < 20 && check.signal.points > 15, `${check.signal.points}`);
  assert.ok(check.signal.evidence.includes("OAI-SearchBot: blocked (line 2: Disallow: /)"));
  const fix = fixOf(searchCrawlers, ctx)!;
  assert.equal(fix.what, "Allow OAI-SearchBot in robots.txt");
  assert.match(fix.how, /OAI-SearchBot/);
});

Deno.test("access.search_crawlers - every major search crawler blocked fails and raises its gate", () => {
  const majors = crawlersByRole("search").filter((c) => c.major).map((c) => c.token);
  const robots = majors.map((t) => `User-agent: ${t}`).join("\n") + "\nDisallow: /\n";
  const check = evaluate(searchCrawlers, pageCtx({ robots }))!;
  assert.equal(check.signal.status, "fail");
  assert.deepEqual(check.signal.gate, { id: "search_crawlers_blocked", cap: 35 });
  assert.equal(check.impact, "critical");
  assert.match(check.signal.detail, /blocks every major search and AI search crawler/);
  for (const t of majors) {
    assert.ok(check.signal.evidence.some((e) => e.startsWith(`${t}: blocked`)));
  }
});
