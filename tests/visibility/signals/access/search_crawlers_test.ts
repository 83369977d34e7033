/** access.search_crawlers: the one access verdict of each AI search crawler, weighted by reach. */
import assert from "node:assert/strict";
import { searchCrawlers } from "../../../../lib/engines/visibility/signals/access/search_crawlers.ts";
import { crawlersByRole } from "../../../../lib/engines/visibility/crawlers.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { scoreSite } from "../../../../lib/engines/visibility/score.ts";
import { answer, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.search_crawlers - every search crawler allowed passes with all 20 points", () => {
  const s = reported(searchCrawlers, pageCtx({ robots: "User-agent: *\nAllow: /\n" }));
  assert.equal(s.status, "pass");
  assert.equal(s.points, 20);
  assert.equal(s.evidence.length, crawlersByRole("search").length);
  assert.ok(s.evidence.includes("OAI-SearchBot: allowed by robots.txt"), s.evidence.join(" | "));
});

Deno.test("access.search_crawlers - one blocked crawler warns (high impact) and the fix names it, checked on the file", () => {
  const ctx = pageCtx({
    robots: "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
  });
  const check = evaluate(searchCrawlers, ctx)!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.impact, "high");
  assert.ok(check.signal.points < 20 && check.signal.points > 15, `${check.signal.points}`);
  assert.ok(
    check.signal.evidence.includes("OAI-SearchBot: blocked by robots.txt (line 2: Disallow: /)"),
  );
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
  assert.match(
    check.signal.detail,
    /Every major search and AI search crawler we check is turned away/,
  );
  for (const t of majors) {
    assert.ok(check.signal.evidence.some((e) => e.startsWith(`${t}: blocked`)));
  }
});

Deno.test("access.search_crawlers - the fix's why names only the products the record shows affected (issue 42)", () => {
  // robots.txt blocks OAI-SearchBot, Claude-SearchBot and PerplexityBot; Googlebot and Bingbot are
  // allowed: Google's AI features and Copilot are not affected, and the words never say so.
  const robots = [
    "User-agent: OAI-SearchBot",
    "User-agent: Claude-SearchBot",
    "User-agent: PerplexityBot",
    "Disallow: /",
    "",
    "User-agent: *",
    "Allow: /",
  ].join("\n");
  const ctx = pageCtx({ robots });
  const fix = fixOf(searchCrawlers, ctx)!;
  assert.match(
    fix.why,
    /^ChatGPT, Claude and Perplexity cannot cite the site in their search answers: robots\.txt tells their crawlers to stay out/,
  );
  assert.doesNotMatch(fix.why, /Google|Copilot|AI Overviews/);
  const label = scoreSite(ctx).label;
  assert.match(label, /ChatGPT, Claude and Perplexity cannot find the site in search: robots\.txt/);
  assert.doesNotMatch(label, /Google|Copilot/);
});

Deno.test("access.search_crawlers - every major crawler turned away by a mix of robots.txt and the edge holds the gate; either fix lifts it", () => {
  const robots = [
    "User-agent: OAI-SearchBot",
    "User-agent: Claude-SearchBot",
    "User-agent: PerplexityBot",
    "Disallow: /",
    "",
    "User-agent: *",
    "Allow: /",
  ].join("\n");
  const refused = () => answer("/", "Forbidden", 403);
  const ctx = pageCtx({
    robots,
    edge: { Googlebot: refused(), Bingbot: refused(), Applebot: refused() },
  });
  const check = evaluate(searchCrawlers, ctx)!;
  assert.equal(check.signal.status, "fail");
  assert.deepEqual(check.signal.gate, { id: "search_crawlers_blocked", cap: 35 });
  assert.ok(
    check.signal.evidence.includes(
      "Googlebot: allowed by robots.txt; refused at the edge: refused (HTTP 403)",
    ),
  );
  assert.ok(
    check.signal.evidence.includes("OAI-SearchBot: blocked by robots.txt (line 4: Disallow: /)"),
    check.signal.evidence.join(" | "),
  );
  const result = scoreSite(ctx);
  const robotsFix = result.topIssues.find((i) => i.fix.cause?.key === "robots.txt:ai-access")!;
  const edgeFix = result.topIssues.find((i) => i.fix.cause?.key === "edge:ai-crawlers")!;
  // Each fix alone lets a major crawler in: each lifts the gate, and each is worth points.
  assert.deepEqual(robotsFix.worth!.lifts, ["search_crawlers_blocked"]);
  assert.deepEqual(edgeFix.worth!.lifts, ["search_crawlers_blocked"]);
  assert.ok(robotsFix.worth!.points > 0 && edgeFix.worth!.points > 0);
  assert.equal(result.topIssues[0].impact, "critical");
});
