/**
 * The verdicts of issue 14, on small self-written inputs: each test reproduces one kind of real
 * site the engine judged wrongly (allowlist robots.txt, per-agent robots directives, structured data
 * in microdata/RDFa, gzipped sitemaps, legacy encodings, the crawler registry, weights, names).
 */
import assert from "node:assert/strict";
import type { Result } from "../lib/engines/visibility/record.ts";
import { analyse, page, signal, validLlms } from "./helpers/verdict_env.ts";
import { CRAWLERS } from "../lib/engines/visibility/crawlers.ts";

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
  // The remedy adds groups for the search crawlers left out; it never opens the * group.
  const how = r.topIssues.find((i) => i.id === "access.search_crawlers")!.fix.how;
  assert.match(how, /User-agent: PerplexityBot\nUser-agent: /);
  assert.doesNotMatch(how, /line \d+: Disallow: \//);
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
  // Weighed so too: blocking a fetcher that may ignore robots.txt costs less than one that obeys.
  const points = (token: string) =>
    signal(analyse({ robots: `User-agent: ${token}\nDisallow: /\n` }), "access.user_fetchers")
      .points;
  assert.ok(points("ChatGPT-User") > points("Claude-User"));
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

// 8. Weights that match consequences
Deno.test("[verdicts] one search crawler blocked outweighs and outranks a missing llms.txt", () => {
  for (const token of ["OAI-SearchBot", "DuckAssistBot"]) {
    const blocked = analyse({
      robots: `User-agent: ${token}\nDisallow: /\n`,
      llms: { ok: true, result: validLlms() },
    });
    const noLlms = analyse({ robots: "User-agent: *\nAllow: /\n" });
    const both = analyse({ robots: `User-agent: ${token}\nDisallow: /\n` });
    const base = analyse({
      robots: "User-agent: *\nAllow: /\n",
      llms: { ok: true, result: validLlms() },
    });
    assert.ok(
      base.score - blocked.score >= base.score - noLlms.score,
      `${token}: block costs ${base.score - blocked.score}, missing llms.txt ${
        base.score - noLlms.score
      }`,
    );
    const ids = both.topIssues.map((i) => i.id);
    assert.ok(
      ids.indexOf("access.search_crawlers") < ids.indexOf("discovery.llms_txt"),
      `${token}: ${ids.join(" ")}`,
    );
  }
});

Deno.test("[verdicts] grade labels describe readiness and never call a crawlable page invisible", async () => {
  const { GRADES } = await import("../lib/engines/visibility/score.ts");
  for (const g of GRADES) assert.doesNotMatch(g.label, /invisible|see little|cannot/i);
});

// 3. Structured data in every format
Deno.test("[verdicts] microdata and RDFa count for organisation, page type and author; rel=author bylines count", () => {
  const micro = analyse({
    html: page(
      "",
      `<article itemscope itemtype="https://schema.org/NewsArticle"><span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jane Doe</span></span>, <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Bob Roe</span></span>
<time itemprop="datePublished" datetime="2026-11-01">1 Nov</time>
<div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">News Example</span><link itemprop="url" href="/"><link itemprop="logo" href="/logo.png"></div></article>`,
    ),
  });
  assert.equal(signal(micro, "structured.page_type").status, "pass");
  assert.notEqual(signal(micro, "structured.organization").status, "fail");
  const a = signal(micro, "trust.author_dates");
  assert.equal(a.status, "pass", a.detail);
  assert.match(a.detail, /2 authors/, "two authors are two people");
  assert.ok(a.evidence.includes("author: Jane Doe") && a.evidence.includes("author: Bob Roe"));

  const rdfa = analyse({
    html: page(
      "",
      `<div vocab="https://schema.org/" typeof="Organization"><span property="name">News Example</span> <a property="url" href="/">home</a> <img property="logo" src="/l.png" alt="logo"></div>`,
    ),
  });
  assert.equal(signal(rdfa, "structured.organization").status, "pass");

  const rel = analyse({
    html: page(
      '<meta property="article:published_time" content="2026-11-01">',
      '<p>By <a rel="author" href="/people/ann">Ann Poe</a></p>',
    ),
  });
  assert.equal(signal(rel, "trust.author_dates").status, "pass");
  assert.ok(signal(rel, "trust.author_dates").evidence.includes("author: Ann Poe"));
});

// 9. Names and pages
Deno.test("[verdicts] a date or a section name in the title is not the brand; legal forms do not split a brand", () => {
  const dated = analyse({
    html: page('<meta property="og:site_name" content="Daily Example">').replace(
      "<title>Local news | News Example</title>",
      "<title>Why rents rose again - Feb. 1, 2016</title>",
    ),
  });
  const ev = signal(dated, "trust.brand").evidence.join("; ");
  assert.doesNotMatch(ev, /title: Feb/);
  assert.equal(signal(dated, "trust.brand").status, "pass", ev);

  const section = analyse({
    html: page('<meta property="og:site_name" content="Daily Example">').replace(
      "<title>Local news | News Example</title>",
      "<title>Council votes on budget | Politics</title>",
    ),
  });
  assert.doesNotMatch(signal(section, "trust.brand").evidence.join("; "), /title: Politics/);

  const inc = analyse({
    html: page(
      '<meta property="og:site_name" content="Spiceworks"><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Spiceworks Inc","url":"https://news.example/"}</script>',
    ).replace("<title>Local news | News Example</title>", "<title>Home | Spiceworks</title>"),
  });
  assert.equal(signal(inc, "trust.brand").status, "pass", signal(inc, "trust.brand").detail);
});

Deno.test("[verdicts] 'About our ads' and privacy-section links are not the About page; role=main counts", () => {
  const html = page().replace(
    '<a href="/about">About us</a>',
    '<a href="/privacy/us/ads.html">About our Ads</a> <a href="/legal/about-cookies">About cookies</a>',
  ).replace("<main>", '<div role="main">').replace("</main>", "</div>").replace(
    "<header>",
    '<div role="banner">',
  ).replace("</header>", "</div>");
  const r = analyse({ html });
  const about = signal(r, "trust.about_contact");
  assert.ok(!about.evidence.some((e) => e.startsWith("about:")), about.evidence.join("; "));
  const sem = signal(r, "content.semantic_html");
  assert.equal(sem.status, "pass", sem.detail);
});

Deno.test("[verdicts] a defect tripped by one page costs its pillar, never the report", () => {
  const r = analyse({
    alterFacts: (f) => {
      (f as { headings: unknown }).headings = null; // the content pillar reads headings
    },
  });
  const s = signal(r, "content.not_evaluated");
  assert.equal(s.status, "unknown");
  assert.ok(r.score > 0 && r.pillars.length === 6);
});

Deno.test("[verdicts] an author given as an @id reference is the person it points to", () => {
  const graph = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Article",
        "@id": "https://news.example/#article",
        author: { "@id": "https://news.example/#/person/1" },
        datePublished: "2026-11-01",
      },
      { "@type": "Person", "@id": "https://news.example/#/person/1", name: "Jane Doe" },
    ],
  };
  const r = analyse({
    html: page(`<script type="application/ld+json">${JSON.stringify(graph)}</script>`),
  });
  const a = signal(r, "trust.author_dates");
  assert.equal(a.status, "pass", a.detail);
  assert.ok(a.evidence.includes("author: Jane Doe"), a.evidence.join("; "));
});
