/** access.edge: what the CDN or firewall answers each AI crawler's User-Agent, next to a browser's. */
import assert from "node:assert/strict";
import { edge } from "../../../../lib/engines/visibility/signals/access/edge.ts";
import { probedCrawlers } from "../../../../lib/engines/visibility/edge_probe.ts";
import { answer, failed, fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";
import { scoreSite } from "../../../../lib/engines/visibility/score.ts";

const CHALLENGE = "<!doctype html><title>Just a moment...</title><p>Checking your browser</p>";
const challenge = () => answer("/", CHALLENGE, 403, { "cf-mitigated": "challenge" });
const MAJOR_SEARCH = [
  "OAI-SearchBot",
  "Claude-SearchBot",
  "PerplexityBot",
  "Googlebot",
  "Bingbot",
  "Applebot",
];

Deno.test("access.edge - the same page for every crawler passes, with the matrix and where the probe came from", () => {
  const s = reported(edge, pageCtx());
  assert.equal(s.status, "pass");
  assert.ok(s.evidence.includes("OAI-SearchBot User-Agent: HTTP 200"), s.evidence.join(" | "));
  assert.ok(s.evidence.includes("Google-Agent User-Agent: HTTP 200"));
  assert.equal(s.evidence.length, probedCrawlers().length);
  assert.match(s.detail, /scanner's address/);
  const row = s.crawlers!.find((r) => r.token === "Google-Agent")!;
  assert.deepEqual(
    { robots: row.robots, edge: row.edge, refused: row.edgeRefused, purpose: row.purpose },
    { robots: "allowed", edge: "HTTP 200", refused: false, purpose: "agent" },
  );
  assert.match(row.docs, /^https:\/\/developers\.google\.com\//);
  assert.match(row.checked, /^\d{4}-\d{2}-\d{2}$/);
  // Token-only crawlers are in the matrix, not probed.
  assert.equal(s.crawlers!.find((r) => r.token === "Google-Extended")!.edge, null);
});

Deno.test("access.edge - every major AI search crawler challenged fails; the search crawlers' gate holds, the edge fix lifts it", () => {
  const edgeAnswers = Object.fromEntries(MAJOR_SEARCH.map((t) => [t, challenge()]));
  const ctx = pageCtx({ edge: edgeAnswers });
  const s = reported(edge, ctx);
  assert.equal(s.status, "fail");
  // No weight of its own: the refusals cost what robots.txt blocks cost, in the search check.
  assert.equal(s.maxPoints, 0);
  assert.equal(s.gate, null);
  assert.ok(s.evidence.includes("OAI-SearchBot User-Agent: a challenge page (HTTP 403)"));
  const row = s.crawlers!.find((r) => r.token === "OAI-SearchBot")!;
  assert.deepEqual([row.edgeState, row.state, row.causes], ["challenge", "refused", [
    "edge_challenge",
  ]]);
  const result = scoreSite(ctx);
  const search = result.pillars[0].signals.find((x) => x.id === "access.search_crawlers")!;
  assert.deepEqual(search.gate, { id: "search_crawlers_blocked", cap: 35 });
  const issue = result.topIssues[0];
  assert.equal(issue.id, "access.edge");
  assert.equal(issue.impact, "critical");
  assert.deepEqual(issue.worth!.lifts, ["search_crawlers_blocked"]);
  assert.ok(issue.resolves!.some((r) => r.id === "access.search_crawlers"));
  const fix = fixOf(edge, ctx)!;
  assert.equal(fix.cause?.key, "edge:ai-crawlers");
  assert.match(fix.why, /answers their crawlers with a challenge page/);
  assert.match(fix.how, /curl -A 'OAI-SearchBot\/1\.3' -I 'https:\/\/shop\.example\/'/);
  assert.match(
    fix.how,
    /https:\/\/openai\.com\/searchbot\.json/,
    "the vendor's published addresses",
  );
});

Deno.test("access.edge - two AI user-agents refused with 403 and one challenged warn, each named with its own label", () => {
  const s = reported(
    edge,
    pageCtx({
      edge: {
        "ChatGPT-User": answer("/", "Forbidden", 403),
        "Perplexity-User": answer("/", "Forbidden", 403),
        "Claude-SearchBot": challenge(),
      },
    }),
  );
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /turns away 3 of \d+/);
  // A plain 403 is refused, never "a challenge page"; the challenge keeps its label.
  assert.match(s.detail, /ChatGPT-User \(refused \(HTTP 403\)\)/);
  assert.match(s.detail, /Claude-SearchBot \(a challenge page \(HTTP 403\)\)/);
  assert.doesNotMatch(s.detail, /ChatGPT-User \(a challenge/);
  const refused = s.crawlers!.filter((r) => r.edgeRefused).map((r) => r.token).sort();
  assert.deepEqual(refused, ["ChatGPT-User", "Claude-SearchBot", "Perplexity-User"]);
  assert.deepEqual(
    s.crawlers!.filter((r) => r.edgeRefused).map((r) => [r.token, r.edgeState]).sort(),
    [["ChatGPT-User", "refused"], ["Claude-SearchBot", "challenge"], [
      "Perplexity-User",
      "refused",
    ]],
  );
});

Deno.test('access.edge - an "Access denied" 403 page is refused, not a challenge; a 429 is a rate limit', () => {
  const denied = answer(
    "/",
    "<!doctype html><title>Access denied</title><p>Access denied</p>",
    403,
  );
  const s = reported(
    edge,
    pageCtx({ edge: { "OAI-SearchBot": denied, "PerplexityBot": answer("/", "Slow down", 429) } }),
  );
  const row = (t: string) => s.crawlers!.find((r) => r.token === t)!;
  assert.equal(row("OAI-SearchBot").edgeState, "refused");
  assert.equal(row("OAI-SearchBot").edge, "HTTP 403");
  assert.equal(row("PerplexityBot").edgeState, "rate_limited");
  assert.doesNotMatch(s.detail, /challenge/);
});

Deno.test("access.edge - a page sharing few of the browser's words, or a redirect to a block page, is a refusal", () => {
  const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
  const html = page("", `<p>${words(120, "coffee")}</p>`);
  const other = answer("/", `<html><body><p>${words(120, "unrelated")}</p></body></html>`);
  const blockPage = answer("/blocked", "<html><body>Sorry</body></html>", 200);
  const s = reported(
    edge,
    pageCtx({ html, edge: { "PerplexityBot": other, "Claude-User": blockPage } }),
  );
  assert.equal(s.status, "warn");
  assert.ok(
    s.evidence.some((e) =>
      /^PerplexityBot User-Agent: a different page \(HTTP 200, \d+% of the browser's words\)$/.test(
        e,
      )
    ),
    s.evidence.join(" | "),
  );
  assert.ok(
    s.evidence.includes(
      "Claude-User User-Agent: a redirect to https://shop.example/blocked (HTTP 200)",
    ),
  );
});

Deno.test("access.edge - training refused alone passes and says it is a choice", () => {
  const s = reported(edge, pageCtx({ edgeTraining: answer("/", "no", 403) }));
  assert.equal(s.status, "pass");
  assert.match(s.detail, /GPTBot\) is refused too: blocking training is your choice/);
});

Deno.test("access.edge - when a browser's User-Agent is refused too, the scanner was refused: no gate, nothing said of the crawlers", () => {
  const no = () => answer("/", "Forbidden", 403);
  const all = Object.fromEntries(probedCrawlers().map((c) => [c.token, no()]));
  const s = reported(edge, pageCtx({ browser: no(), edge: all }));
  assert.equal(s.status, "unknown");
  assert.equal(s.gate, null);
  assert.equal(s.maxPoints, 0);
  assert.match(s.detail, /refused our scanner/);
  assert.doesNotMatch(s.detail, /turns away|blocks AI/);
  assert.ok(s.crawlers!.every((r) => r.edgeRefused === null));
});

Deno.test("access.edge - search probes without an answer are unknown, out of the score", () => {
  const edgeAnswers = Object.fromEntries(
    probedCrawlers().map((c) => [c.token, failed()]),
  );
  const s = reported(edge, pageCtx({ edge: edgeAnswers }));
  assert.equal(s.status, "unknown");
  assert.equal(s.maxPoints, 0);
});
