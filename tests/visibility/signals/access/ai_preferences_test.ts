/**
 * access.ai_preferences: Content-Signal lines (Cloudflare) and the IETF Content-Usage rule and
 * header, per purpose, with their contradictions against robots.txt; never scored.
 */
import assert from "node:assert/strict";
import { aiPreferences } from "../../../../lib/engines/visibility/signals/access/ai_preferences.ts";
import { pageCtx, reported } from "../../../helpers/signal_ctx.ts";

/** A Cloudflare managed robots.txt, in the shape its documentation shows (our own lines). */
const CLOUDFLARE = [
  "# As a condition of accessing this website, you agree to abide by the following content signals:",
  "# search: building a search index and providing search results",
  "",
  "# BEGIN Cloudflare Managed content",
  "User-Agent: *",
  "Content-signal: search=yes, ai-train=no",
  "Allow: /",
  "",
  "User-agent: GPTBot",
  "Disallow: /",
  "",
  "User-agent: CCBot",
  "Disallow: /",
  "# END Cloudflare Managed Content",
  "",
].join("\n");

Deno.test("access.ai_preferences - a Cloudflare-style Content-Signal is read per purpose, and its contradictions named, never scored", () => {
  const s = reported(aiPreferences, pageCtx({ robots: CLOUDFLARE }));
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
  assert.equal(s.points, 0);
  assert.ok(s.evidence.includes("search (links and short excerpts): yes"), s.evidence.join(" | "));
  assert.ok(s.evidence.includes("AI input (answers grounded on the page): not declared"));
  assert.ok(s.evidence.includes("AI training: no"));
  // ai-train=no in the * group, while training crawlers without a group of their own may crawl.
  const clash = s.evidence.find((e) => e.startsWith("contradiction: AI training"))!;
  assert.match(clash, /declared "no" for ClaudeBot/);
  assert.doesNotMatch(clash, /GPTBot|CCBot/, "their own groups keep them out and say nothing else");
  assert.ok(s.evidence.includes("robots.txt line 6 (Content-Signal), User-agent: *: search yes"));
  assert.match(s.detail, /informational, not scored/);
});

Deno.test("access.ai_preferences - a preference in a crawler's own group that robots.txt contradicts is named", () => {
  const robots =
    "User-agent: GPTBot\nContent-Signal: ai-train=yes\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
  const s = reported(aiPreferences, pageCtx({ robots }));
  assert.ok(
    s.evidence.includes(
      'contradiction: AI training is declared "yes" for GPTBot, yet robots.txt keeps it out of the home page',
    ),
    s.evidence.join(" | "),
  );
});

Deno.test("access.ai_preferences - the aipref Content-Usage header and robots.txt rule (path-scoped) are read", () => {
  const robots = "User-agent: *\nAllow: /\nContent-Usage: /blog/ train-ai=y\n";
  const s = reported(
    aiPreferences,
    pageCtx({ robots, homeHeaders: { "content-usage": "train-ai=n, search=y, ai-use=n" } }),
  );
  assert.ok(s.evidence.includes("search (links and short excerpts): yes"), s.evidence.join(" | "));
  assert.ok(s.evidence.includes("AI input (answers grounded on the page): no"));
  assert.ok(s.evidence.includes("AI training: no"));
  assert.ok(
    s.evidence.includes(
      "robots.txt line 3 (Content-Usage), User-agent: *, under /blog/: training yes",
    ),
  );
  assert.ok(s.evidence.includes("Content-Usage header: ai input no"));
});

Deno.test("access.ai_preferences - an unreadable Content-Usage states nothing; other keys are reported as written", () => {
  const robots = "User-agent: *\nContent-Signal: search=yes, use=reference\nAllow: /\n";
  const s = reported(
    aiPreferences,
    pageCtx({ robots, homeHeaders: { "content-usage": "Train-AI=n" } }),
  );
  assert.ok(s.evidence.includes("AI training: not declared"), s.evidence.join(" | "));
  // Content Signals' use key is read as a level (Cloudflare, 2026-08-31), not left as written.
  assert.ok(s.evidence.includes("use (how far AI may use content): reference"));
  assert.ok(
    s.evidence.includes("robots.txt line 2 (Content-Signal), User-agent: *: use=reference"),
  );
  assert.match(s.detail, /Content Signals use\): reference \(the least permissive level\)/);
  assert.ok(s.evidence.some((e) => /Content-Usage header: unreadable/.test(e)));
});

Deno.test("access.ai_preferences - nothing declared is reported plainly", () => {
  const s = reported(aiPreferences, pageCtx({ robots: "User-agent: *\nAllow: /\n" }));
  assert.equal(s.status, "info");
  assert.match(s.detail, /declares no AI usage preference/);
});
