/**
 * The verdicts of issue 14, on small self-written inputs: each test reproduces one kind of real
 * site the engine judged wrongly (allowlist robots.txt, per-agent robots directives, structured data
 * in microdata/RDFa, gzipped sitemaps, legacy encodings, the crawler registry, weights, names).
 */
import assert from "node:assert/strict";
import type { Result } from "../lib/visibility/record.ts";
import { analyse, page, signal } from "./helpers/verdict_env.ts";
import { CRAWLERS } from "../lib/visibility/crawlers.ts";

const gates = (r: Result) =>
  r.pillars.flatMap((p) => p.signals).map((s) => s.gate?.id).filter(Boolean);

// 1. Allowlist robots.txt
Deno.test("[verdicts] an allowlist robots.txt that admits search crawlers by name is not a blanket block", () => {
  const robots = [
    "User-agent: Googlebot",
    "Allow: /",
    "",
    "User-agent: Bingbot",
    "Allow: /",
    "",
    "User-agent: OAI-SearchBot",
    "Allow: /",
    "",
    "User-agent: *",
    "Disallow: /",
  ].join("\n");
  const r = analyse({ robots });
  assert.ok(!gates(r).includes("blanket_disallow"), `gates ${gates(r)}`);
  const blanket = signal(r, "access.blanket_disallow");
  assert.equal(blanket.status, "warn");
  assert.match(blanket.detail, /allowlist/);
  assert.doesNotMatch(blanket.detail, /cannot read the site\.$/);
  const admitted = blanket.detail.match(/admitted by name \(([^)]*)\)/)?.[1] ?? "";
  for (const t of ["Googlebot", "Bingbot", "Applebot", "OAI-SearchBot"]) {
    assert.ok(admitted.split(", ").includes(t), `${t} admitted (Applebot follows Googlebot)`);
  }
  assert.ok(r.score > 35, `score ${r.score}`);
  // A file that admits no search crawler at all is still the blanket block.
  const closed = analyse({
    robots: "User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
  });
  assert.ok(gates(closed).includes("blanket_disallow"));
  assert.ok(closed.score <= 20);
});

// 2. Robots meta / X-Robots-Tag per directive and per agent
Deno.test("[verdicts] max-image-preview:none is not noindex", () => {
  const r = analyse({
    html: page('<meta name="robots" content="index, follow, max-image-preview:none">'),
  });
  assert.equal(signal(r, "access.indexing").status, "pass");
  assert.ok(!gates(r).includes("noindex"));
});

Deno.test("[verdicts] a noindex scoped to one agent applies to that agent only", () => {
  const news = analyse({ html: page('<meta name="googlebot-news" content="noindex">') });
  assert.equal(signal(news, "access.indexing").status, "pass", "Google News is not scored");
  assert.ok(!gates(news).includes("noindex"));

  const bing = analyse({ homeHeaders: { "x-robots-tag": "bingbot: noindex" } });
  const s = signal(bing, "access.indexing");
  assert.equal(s.status, "warn");
  assert.match(s.detail, /Bingbot/);
  assert.ok(!gates(bing).includes("noindex"));

  const all = analyse({ homeHeaders: { "x-robots-tag": "noindex, nofollow" } });
  assert.ok(gates(all).includes("noindex"));
  const meta = analyse({ html: page('<meta name="robots" content="none">') });
  assert.ok(gates(meta).includes("noindex"));
  // An agent scope in the header ends at the next one: "googlebot: nofollow, otherbot: noindex".
  const scoped = analyse({
    homeHeaders: { "x-robots-tag": "googlebot: nofollow, otherbot: noindex" },
  });
  assert.equal(signal(scoped, "access.indexing").status, "pass");
});

Deno.test("[verdicts] nosnippet and max-snippet:0 warn; max-snippet:-1 does not", () => {
  const a = analyse({ html: page('<meta name="robots" content="max-snippet:0">') });
  assert.equal(signal(a, "access.indexing").status, "warn");
  const b = analyse({
    html: page('<meta name="robots" content="max-snippet:-1, max-video-preview:-1">'),
  });
  assert.equal(signal(b, "access.indexing").status, "pass");
});

// 7. Registry
Deno.test("[verdicts] the crawler registry names current AI search and user crawlers with true roles", () => {
  const role = (t: string) => CRAWLERS.find((c) => c.token.toLowerCase() === t.toLowerCase())?.role;
  assert.equal(role("meta-webindexer"), "search");
  assert.equal(role("DuckAssistBot"), "search");
  assert.equal(role("Amzn-SearchBot"), "search");
  assert.equal(role("MistralAI-User"), "user");
  assert.equal(role("Meta-ExternalFetcher"), "user");
  assert.ok(role("anthropic-ai"));
  assert.ok(role("Claude-Web"));
  const ge = CRAWLERS.find((c) => c.token === "Google-Extended")!;
  assert.match(ge.operator, /grounding/);
  assert.match(ge.operator, /not Search or AI Overviews/);
  const tokens = CRAWLERS.map((c) => c.token.toLowerCase());
  assert.equal(new Set(tokens).size, tokens.length, "no duplicates");
  for (const c of CRAWLERS) assert.match(c.token, /^[A-Za-z_-]+$/, "a valid product token");
});

Deno.test("[verdicts] blocked user fetchers whose vendors say they may ignore robots.txt are worded so", () => {
  const r = analyse({
    robots: "User-agent: ChatGPT-User\nUser-agent: Perplexity-User\nDisallow: /\n",
  });
  const s = signal(r, "access.user_fetchers");
  assert.equal(s.status, "warn");
  assert.match(s.detail, /may not follow robots\.txt/);
  assert.ok(gates(r).length === 0);
});

Deno.test("[verdicts] a robots.txt with only major search crawlers blocked is gated, minor ones left open do not lift it", () => {
  const majors = CRAWLERS.filter((c) => c.role === "search" && c.major).map((c) =>
    `User-agent: ${c.token}`
  );
  const r = analyse({ robots: `${majors.join("\n")}\nDisallow: /\n` });
  assert.ok(gates(r).includes("search_crawlers_blocked"), `gates ${gates(r)}`);
});

// 5. No input crashes a scan
Deno.test("[verdicts] hostile robots.txt, headers and pages still give a report", () => {
  const weird = [
    { robots: "User-agent: *\nDisallow: //\nAllow: /*?$\n" + "Disallow: /%\n".repeat(50) },
    {
      homeHeaders: {
        "x-robots-tag": ":,:,,googlebot:,max-snippet:abc,unavailable_after: 25 Jun 2010",
      },
    },
    { html: page('<meta name="robots" content=":::,noindex:">') },
    { html: "<title>" + "&#x;".repeat(1000) },
  ];
  for (const w of weird) {
    const r = analyse(w);
    assert.ok(r.score >= 0 && r.score <= 100);
  }
});
