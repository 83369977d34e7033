import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { LinearParser } from "../lib/engines/html/linear_parser.ts";
import { extractPageFacts, PAGE_FACTS_LIMITS } from "../lib/engines/html/page_facts.ts";
import { countWords } from "../lib/engines/html/text_tools.ts";

const BASE = "https://www.example.com/dir/page.html";

/** Facts of a snippet, resolved against {@link BASE} unless told otherwise. */
function facts(html: string, base = BASE) {
  return extractPageFacts(html, base);
}

// --- title, lang, head basics ---------------------------------------------------------------

Deno.test("[page_facts] svg title is not the page title", () => {
  const f = facts(
    `<html><head></head><body><svg><title>Icon</title><path d=""/></svg><title>Real</title></body></html>`,
  );
  assert.equal(f.title, "Real");
  assert.equal(f.titleCount, 1);
  assert.equal(f.text.words, 0, "neither title's text is visible");
});

Deno.test("[page_facts] only an svg title means no page title", () => {
  const f = facts(`<svg><title>Icon</title></svg><p>Body</p>`);
  assert.equal(f.title, null);
  assert.equal(f.titleCount, 0);
});

Deno.test("[page_facts] multiple titles: first wins, all counted", () => {
  const f = facts(`<title>  First
    title </title><title>Second</title>`);
  assert.equal(f.title, "First title");
  assert.equal(f.titleCount, 2);
});

Deno.test("[page_facts] missing title is null, empty title is empty string", () => {
  assert.equal(facts(`<p>x</p>`).title, null);
  assert.equal(facts(`<title> </title>`).title, "");
});

Deno.test("[page_facts] title entities decoded", () => {
  assert.equal(
    facts(`<title>Tom &amp; Jerry&#39;s &quot;caf&eacute;&quot;</title>`).title,
    `Tom & Jerry's "café"`,
  );
});

Deno.test("[page_facts] lang trimmed, empty or missing is null", () => {
  assert.equal(facts(`<html lang=" en-GB "><body>x</body></html>`).lang, "en-GB");
  assert.equal(facts(`<html lang=""><body>x</body></html>`).lang, null);
  assert.equal(facts(`<body>x</body>`).lang, null);
  assert.equal(facts(`<HTML LANG="fr"><BODY>x</BODY></HTML>`).lang, "fr", "case-insensitive tags");
});

Deno.test("[page_facts] description collapsed, viewport, canonical absolute and counted", () => {
  const f = facts(`<head>
    <meta name="Description" content="  A   fine
      page ">
    <meta name="description" content="second">
    <meta name="viewport" content="width=device-width">
    <link rel="canonical" href="/canonical?a=1">
    <link rel="canonical" href="https://other.example/">
  </head>`);
  assert.equal(f.metaDescription, "A fine page");
  assert.equal(f.hasViewport, true);
  assert.equal(f.canonical, "https://www.example.com/canonical?a=1");
  assert.equal(f.canonicalCount, 2);
  const bare = facts(`<p>x</p>`);
  assert.equal(bare.metaDescription, null);
  assert.equal(bare.hasViewport, false);
  assert.equal(bare.canonical, null);
  assert.equal(bare.canonicalCount, 0);
});

Deno.test("[page_facts] canonical with rel token list and invalid href", () => {
  assert.equal(
    facts(`<link rel="Canonical alternate" href="x">`).canonical,
    "https://www.example.com/dir/x",
  );
  const bad = facts(`<link rel="canonical" href="http://[bad">`);
  assert.equal(bad.canonical, null);
  assert.equal(bad.canonicalCount, 1);
});

// --- meta robots, og, twitter, meta -----------------------------------------------------------

Deno.test("[page_facts] meta robots by bot name, lowercased and merged", () => {
  const f = facts(`
    <meta name="ROBOTS" content="NoIndex, NOFOLLOW">
    <meta name="robots" content="noindex, max-snippet:50">
    <meta name="GPTBot" content="noai, noimageai">
    <meta name="googlebot" content="nosnippet">
    <meta name="PerplexityBot" content="noindex">
    <meta name="somenewbot" content="none">
    <meta name="author" content="not a robot">`);
  assert.deepEqual(f.metaRobots, {
    robots: "noindex, nofollow, max-snippet:50",
    gptbot: "noai, noimageai",
    googlebot: "nosnippet",
    perplexitybot: "noindex",
    somenewbot: "none",
  });
});

Deno.test("[page_facts] open graph and twitter: first occurrence, name or property", () => {
  const f = facts(`
    <meta property="og:title" content=" OG Title ">
    <meta property="og:title" content="Second">
    <meta name="og:description" content="Named og">
    <meta property="OG:Image" content="https://cdn.example.com/i.png">
    <meta name="twitter:card" content="summary_large_image">
    <meta property="twitter:site" content="@example">
    <meta name="twitter:card" content="summary">`);
  assert.deepEqual(f.openGraph, {
    "og:title": "OG Title",
    "og:description": "Named og",
    "og:image": "https://cdn.example.com/i.png",
  });
  assert.deepEqual(f.twitter, {
    "twitter:card": "summary_large_image",
    "twitter:site": "@example",
  });
});

Deno.test("[page_facts] meta keeps dates, author, generator and friends", () => {
  const f = facts(`
    <meta name="Author" content="Ann Writer">
    <meta name="author" content="Ignored second">
    <meta property="article:published_time" content="2024-01-02T03:04:05Z">
    <meta property="article:modified_time" content="2024-02-01">
    <meta property="og:updated_time" content="2024-02-02">
    <meta name="date" content="2024-01-01">
    <meta name="DC.date" content="2023-12-31">
    <meta name="generator" content="WordPress 6.5">
    <meta name="keywords" content="a, b">
    <meta name="theme-color" content="#fff">
    <meta name="application-name" content="App">
    <meta name="apple-mobile-web-app-title" content="AppT">
    <meta name="unrelated" content="nope">
    <meta name="description" content="not here">`);
  assert.deepEqual(f.meta, {
    author: "Ann Writer",
    "article:published_time": "2024-01-02T03:04:05Z",
    "article:modified_time": "2024-02-01",
    "og:updated_time": "2024-02-02",
    date: "2024-01-01",
    "dc.date": "2023-12-31",
    generator: "WordPress 6.5",
    keywords: "a, b",
    "theme-color": "#fff",
    "application-name": "App",
    "apple-mobile-web-app-title": "AppT",
  });
  assert.equal(f.openGraph["og:updated_time"], "2024-02-02");
});

// --- hreflang and feeds -------------------------------------------------------------------------

Deno.test("[page_facts] hreflang alternates resolved absolute", () => {
  const f = facts(`
    <link rel="alternate" hreflang="de" href="/de/">
    <link rel="alternate" hreflang="x-default" href="https://www.example.com/">
    <link rel="alternate" href="/no-lang/">
    <link rel="stylesheet" hreflang="fr" href="/fr.css">`);
  assert.deepEqual(f.hreflang, [
    { lang: "de", href: "https://www.example.com/de/" },
    { lang: "x-default", href: "https://www.example.com/" },
  ]);
});

Deno.test("[page_facts] feeds: rss, atom and json feed types, deduplicated", () => {
  const f = facts(`
    <link rel="alternate" type="application/rss+xml" href="/feed.xml">
    <link rel="alternate" type="Application/Atom+XML; charset=utf-8" href="https://blog.example.com/atom">
    <link rel="alternate" type="application/feed+json" href="/feed.json">
    <link rel="alternate" type="application/rss+xml" href="/feed.xml">
    <link rel="alternate" type="application/json+oembed" href="/oembed">
    <link rel="alternate" type="text/html" href="/print">`);
  assert.deepEqual(f.feeds, [
    "https://www.example.com/feed.xml",
    "https://blog.example.com/atom",
    "https://www.example.com/feed.json",
  ]);
});

// --- headings -----------------------------------------------------------------------------------

Deno.test("[page_facts] headings text with nested inline tags", () => {
  const f = facts(`<h1>Hello <em>brave</em> <a href="/w">new</a>   world</h1>
    <h2>Line<br>break</h2><h3>Tag<b>glued</b></h3><h4><span>  </span></h4>
    <h2>Has <script>var hidden = 1;</script>no script</h2>`);
  assert.deepEqual(f.headings, [
    { level: 1, text: "Hello brave new world" },
    { level: 2, text: "Line break" },
    { level: 3, text: "Tagglued" },
    { level: 4, text: "" },
    { level: 2, text: "Has no script" },
  ]);
});

Deno.test("[page_facts] headings capped at 200 entries of 200 chars", () => {
  const long = "x".repeat(500);
  const html = `<h1>${long}</h1>` +
    Array.from({ length: 300 }, (_, i) => `<h2>H ${i}?</h2>`).join("");
  const f = facts(html);
  assert.equal(f.headings.length, PAGE_FACTS_LIMITS.headings);
  assert.equal(f.headings[0].text.length, 200);
  assert.equal(f.questionHeadings, 300, "question headings counted past the list cap");
});

Deno.test("[page_facts] question headings", () => {
  const f = facts(`
    <h2>What is an AI crawler</h2><h2>How to bake bread</h2><h3>Is it free</h3>
    <h3>Pricing?</h3><h4>1. Why does this matter</h4><h2>Does it work ？</h2>
    <h2>Island hopping</h2><h2>Whatever</h2><h2>Features</h2><h2>Showcase</h2>`);
  assert.equal(f.questionHeadings, 6);
});

Deno.test("[page_facts] details, definition lists, lists, tables", () => {
  const f = facts(`<details><summary>Q</summary>A</details><details></details>
    <dl><dt>T</dt><dd>D</dd></dl><ul><li>a</li></ul><ol><li>b</li></ol><ul></ul>
    <table><tr><td>1</td></tr></table>`);
  assert.equal(f.detailsCount, 2);
  assert.equal(f.definitionLists, 1);
  assert.equal(f.lists, 3);
  assert.equal(f.tables, 1);
});

// --- links ----------------------------------------------------------------------------------------

Deno.test("[page_facts] relative, protocol-relative and base-href links", () => {
  const f = facts(`<head><base href="https://cdn.example.com/base/"></head><body>
    <a href="rel/one">One</a>
    <a href="/abs">Abs</a>
    <a href="//other.example.org/x">Proto</a>
    <a href="?q=1">Query</a>
    <a href="https://www.example.com/full">Full</a></body>`);
  assert.deepEqual(f.links.map((l) => l.href), [
    "https://cdn.example.com/base/rel/one",
    "https://cdn.example.com/abs",
    "https://other.example.org/x",
    "https://cdn.example.com/base/?q=1",
    "https://www.example.com/full",
  ]);
});

Deno.test("[page_facts] relative links without base resolve against the page URL", () => {
  const f = facts(`<a href="next.html">N</a><a href="../up">U</a><a href="#top">T</a>`);
  assert.deepEqual(f.links.map((l) => l.href), [
    "https://www.example.com/dir/next.html",
    "https://www.example.com/up",
    "https://www.example.com/dir/page.html",
  ]);
});

Deno.test("[page_facts] only the first base href counts and non-http bases are ignored", () => {
  const first = facts(`<base href="/one/"><base href="/two/"><a href="x">x</a>`);
  assert.equal(first.links[0].href, "https://www.example.com/one/x");
  const js = facts(`<base href="javascript:alert(1)"><a href="x">x</a>`);
  assert.equal(js.links[0].href, "https://www.example.com/dir/x");
});

Deno.test("[page_facts] non-http and invalid links are skipped without throwing", () => {
  const f = facts(`
    <a href="javascript:void(0)">js</a><a href=" JavaScript:alert(1)">js2</a>
    <a href="mailto:hi@example.com">mail</a><a href="tel:+123">tel</a>
    <a href="data:text/html,hi">data</a><a href="ftp://example.com/f">ftp</a>
    <a href="http://[::1">bad ipv6</a><a href="https://exa mple.com/">space host</a>
    <a href="">empty</a><a>no href</a><a href="  ">blank</a>
    <a href="https://ok.example.net/">ok</a>`);
  assert.deepEqual(f.links.map((l) => l.href), ["https://ok.example.net/"]);
});

Deno.test("[page_facts] links deduplicated by href (fragment dropped), first text kept", () => {
  const f = facts(`<a href="/a">First</a><a href="/a#x">Second</a>
    <a href="https://www.example.com/a">Third</a><a href="/b">B</a>`);
  assert.deepEqual(f.links, [
    { href: "https://www.example.com/a", text: "First", rel: "", internal: true },
    { href: "https://www.example.com/b", text: "B", rel: "", internal: true },
  ]);
});

Deno.test("[page_facts] link text collapsed, capped, with aria-label and alt fallbacks", () => {
  const f = facts(`
    <a href="/1" rel="NoFollow UGC">  Read
      <strong>more</strong>&nbsp;here </a>
    <a href="/2">${"word ".repeat(100)}</a>
    <a href="/3" aria-label="Home page"><svg><title>icon</title></svg></a>
    <a href="/4"><img src="/logo.png" alt="Company logo"></a>`);
  assert.equal(f.links[0].text, "Read more here");
  assert.equal(f.links[0].rel, "nofollow ugc");
  assert.equal(f.links[1].text.length, 200);
  assert.equal(f.links[2].text, "Home page");
  assert.equal(f.links[3].text, "Company logo");
});

Deno.test("[page_facts] internal links by registrable domain", () => {
  const f = facts(`
    <a href="https://example.com/1">apex</a>
    <a href="https://blog.example.com/2">sub</a>
    <a href="http://WWW.EXAMPLE.COM/3">upper</a>
    <a href="https://example.org/4">other tld</a>
    <a href="https://notexample.com/5">other</a>`);
  assert.deepEqual(f.links.map((l) => l.internal), [true, true, true, false, false]);
});

Deno.test("[page_facts] internal links on multi-part suffixes and private suffixes", () => {
  const uk = facts(
    `<a href="https://shop.example.co.uk/">a</a><a href="https://other.co.uk/">b</a>`,
    "https://www.example.co.uk/",
  );
  assert.deepEqual(uk.links.map((l) => l.internal), [true, false]);
  const gh = facts(
    `<a href="https://alice.github.io/x">a</a><a href="https://bob.github.io/">b</a>`,
    "https://alice.github.io/",
  );
  assert.deepEqual(gh.links.map((l) => l.internal), [true, false]);
});

Deno.test("[page_facts] internal links for hosts without a registrable domain", () => {
  const local = facts(
    `<a href="http://localhost:8000/a">a</a><a href="http://www.localhost/b">b</a>
    <a href="http://127.0.0.1/c">c</a>`,
    "http://localhost:8000/",
  );
  assert.deepEqual(local.links.map((l) => l.internal), [true, true, false]);
  const test = facts(
    `<a href="http://www.shop.test/a">a</a><a href="http://other.test/b">b</a>`,
    "http://shop.test/",
  );
  assert.deepEqual(test.links.map((l) => l.internal), [true, false]);
  const ip = facts(`<a href="/a">a</a><a href="http://10.0.0.2/">b</a>`, "http://10.0.0.1/");
  assert.deepEqual(ip.links.map((l) => l.internal), [true, false]);
});

Deno.test("[page_facts] invalid base URL keeps absolute links only", () => {
  const f = facts(`<a href="/rel">r</a><a href="https://a.example/">a</a>`, "not a url");
  assert.deepEqual(f.links, [{ href: "https://a.example/", text: "a", rel: "", internal: false }]);
});

Deno.test("[page_facts] links inside template are not collected", () => {
  const f = facts(
    `<template><a href="/hidden">h</a><h2>No</h2><img src="/t.png"></template><a href="/shown">s</a>`,
  );
  assert.deepEqual(f.links.map((l) => l.href), ["https://www.example.com/shown"]);
  assert.equal(f.headings.length, 0);
  assert.equal(f.images.length, 0);
});

// --- trust links ----------------------------------------------------------------------------------

Deno.test("[page_facts] trust links by path or text, absolute", () => {
  const f = facts(`<footer>
    <a href="/company/about-us.html">Our story</a>
    <a href="/help">Contact us</a>
    <a href="/legal/privacy-policy">Legal</a>
    <a href="/contact">Contact</a></footer>`);
  assert.deepEqual(f.trustLinks, {
    about: "https://www.example.com/company/about-us.html",
    contact: "https://www.example.com/help",
    privacy: "https://www.example.com/legal/privacy-policy",
  });
});

Deno.test("[page_facts] trust links prefer the site's own pages", () => {
  const f = facts(`<a href="https://policies.google.com/privacy">Privacy</a>
    <a href="https://twitter.com/about">About</a>
    <a href="/privacy">Privacy</a><a href="/team">Meet the team</a>`);
  assert.equal(f.trustLinks.privacy, "https://www.example.com/privacy");
  assert.equal(f.trustLinks.about, "https://www.example.com/team");
  assert.equal(f.trustLinks.contact, null);
  const external = facts(`<a href="https://policies.google.com/privacy">Privacy</a>`);
  assert.equal(external.trustLinks.privacy, "https://policies.google.com/privacy");
});

Deno.test("[page_facts] mailto contact and unrelated links are not trust links", () => {
  const f = facts(
    `<a href="mailto:x@example.com">Contact</a><a href="/blog/1">About time we talked</a>
    <a href="/pricing">Learn about pricing</a><a href="/blog/privacy-matters-2">Read</a>`,
  );
  assert.deepEqual(f.trustLinks, {
    about: null,
    contact: null,
    privacy: "https://www.example.com/blog/privacy-matters-2",
  });
  const named = facts(`<a href="/company-info">About Acme Corp</a>`);
  assert.equal(named.trustLinks.about, "https://www.example.com/company-info");
});

// --- images ---------------------------------------------------------------------------------------

Deno.test("[page_facts] images: absolute src, alt null when missing, lazy-load sources", () => {
  const f = facts(`
    <img src="/a.png" alt="  An   image ">
    <img src="b.jpg">
    <img src="c.gif" alt="">
    <img src="data:image/gif;base64,R0lGOD" data-src="/lazy.webp" alt="Lazy">
    <img srcset="/small.jpg 1x, /big.jpg 2x" alt="Set">
    <img alt="No source">
    <noscript><img src="/fallback.png" alt="Fallback"></noscript>`);
  assert.deepEqual(f.images, [
    { src: "https://www.example.com/a.png", alt: "An image" },
    { src: "https://www.example.com/dir/b.jpg", alt: null },
    { src: "https://www.example.com/dir/c.gif", alt: "" },
    { src: "https://www.example.com/lazy.webp", alt: "Lazy" },
    { src: "https://www.example.com/small.jpg", alt: "Set" },
  ]);
});

Deno.test("[page_facts] images capped at 500", () => {
  const f = facts(Array.from({ length: 700 }, (_, i) => `<img src="/i${i}.png" alt="">`).join(""));
  assert.equal(f.images.length, PAGE_FACTS_LIMITS.images);
});

// --- JSON-LD --------------------------------------------------------------------------------------

Deno.test("[page_facts] JSON-LD object parsed, length is raw length", () => {
  const raw = `\n  {"@context":"https://schema.org","@type":"Organization","name":"A &amp; B"}\n`;
  const f = facts(`<script type="application/ld+json">${raw}</script>`);
  assert.equal(f.jsonLd.length, 1);
  assert.deepEqual(f.jsonLd[0], {
    value: { "@context": "https://schema.org", "@type": "Organization", name: "A &amp; B" },
    error: null,
    length: raw.length,
    text: raw,
  });
});

Deno.test("[page_facts] JSON-LD array and @graph pass through as parsed values", () => {
  const f = facts(`
    <script type="application/ld+json">[{"@type":"Person"},{"@type":"WebSite"}]</script>
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article"}]}</script>`);
  assert.deepEqual(f.jsonLd[0].value, [{ "@type": "Person" }, { "@type": "WebSite" }]);
  assert.deepEqual(f.jsonLd[1].value, {
    "@context": "https://schema.org",
    "@graph": [{ "@type": "Article" }],
  });
});

Deno.test("[page_facts] malformed JSON-LD keeps an error message", () => {
  const f = facts(`<script type="application/ld+json">{"@type": "Thing",}</script>
    <script type="application/ld+json"></script>`);
  assert.equal(f.jsonLd.length, 2);
  assert.equal(f.jsonLd[0].value, null);
  assert.equal(typeof f.jsonLd[0].error, "string");
  assert.ok(f.jsonLd[0].error!.length > 0);
  assert.equal(f.jsonLd[1].value, null);
  assert.ok(f.jsonLd[1].error);
  assert.equal(f.jsonLd[1].length, 0);
});

Deno.test("[page_facts] JSON-LD type is case-insensitive and may carry parameters", () => {
  const f = facts(`
    <script type="Application/LD+JSON">{"a":1}</script>
    <script type=" application/ld+json; charset=utf-8 ">{"b":2}</script>
    <script type="application/json">{"c":3}</script>
    <script type="text/ld+json">{"d":4}</script>`);
  assert.deepEqual(f.jsonLd.map((b) => b.value), [{ a: 1 }, { b: 2 }]);
});

Deno.test("[page_facts] JSON-LD BOM, comment and CDATA wrappers are stripped", () => {
  const f = facts(`
    <script type="application/ld+json">\uFEFF{"a":1}</script>
    <script type="application/ld+json"><!-- {"b":2} --></script>
    <script type="application/ld+json">//<![CDATA[
      {"c":3}
    //]]></script>
    <script type="application/ld+json">/*<![CDATA[*/{"d":4}/*]]>*/</script>`);
  assert.deepEqual(f.jsonLd.map((b) => [b.value, b.error]), [
    [{ a: 1 }, null],
    [{ b: 2 }, null],
    [{ c: 3 }, null],
    [{ d: 4 }, null],
  ]);
});

Deno.test("[page_facts] JSON-LD capped at 50 blocks", () => {
  const f = facts(`<script type="application/ld+json">{"n":1}</script>`.repeat(60));
  assert.equal(f.jsonLd.length, PAGE_FACTS_LIMITS.jsonLd);
  assert.equal(f.scripts.count, 60);
  assert.equal(f.scripts.inlineBytes, 0, "JSON-LD is not inline code");
});

// --- microdata / RDFa ----------------------------------------------------------------------------

Deno.test("[page_facts] microdata and RDFa counts, item types deduplicated", () => {
  const f = facts(`
    <div itemscope itemtype="https://schema.org/Product">
      <span itemprop="name">P</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer  https://schema.org/Thing"></div>
    </div>
    <div itemscope itemtype="https://schema.org/Product"></div>
    <div itemscope></div>
    <div vocab="https://schema.org/" typeof="Person"><span property="name">N</span></div>
    <span typeof="Place"></span>`);
  assert.equal(f.microdataItems, 4);
  assert.deepEqual(f.microdataTypes, [
    "https://schema.org/Product",
    "https://schema.org/Offer",
    "https://schema.org/Thing",
  ]);
  assert.equal(f.rdfaItems, 2);
});

// --- visible text ---------------------------------------------------------------------------------

Deno.test("[page_facts] visible text excludes script, style, template, svg, head and title", () => {
  const f = facts(`<html><head><title>Title words</title><style>.a{color:red}</style>
    <script>var inHead = "nope";</script></head><body>
    <p>One two</p><script>var x = "hidden words";</script><style>p{}</style>
    <template><p>template words</p></template><svg><text>svg words</text></svg>
    <iframe>fallback words</iframe><p>three</p></body></html>`);
  assert.equal(f.text.sample, "One two three");
  assert.equal(f.text.words, 3);
  assert.equal(f.text.chars, "One two three".length);
});

Deno.test("[page_facts] noscript text counted separately", () => {
  const f = facts(`<noscript><p>Please enable JavaScript to continue</p></noscript><p>Visible</p>`);
  assert.equal(f.noscriptWords, 5);
  assert.equal(f.text.words, 1);
  assert.equal(f.text.sample, "Visible");
});

Deno.test("[page_facts] entities decoded and whitespace collapsed", () => {
  const f = facts(`<p>  caf&eacute;&nbsp;&amp;&#32;cr&#xE8;me   &lt;b&gt;
    br&ucirc;l&eacute;e  </p><p>next</p>`);
  assert.equal(f.text.sample, "café & crème <b> brûlée next");
  assert.equal(f.text.words, 5);
});

Deno.test("[page_facts] block boundaries separate words, inline tags do not", () => {
  const f = facts(
    `<div>alpha</div><div>beta</div><p>ga<b>mm</b>a</p><ul><li>one</li><li>two</li></ul>x<br>y`,
  );
  assert.equal(f.text.sample, "alpha beta gamma one two x y");
  assert.equal(f.text.words, 7);
});

Deno.test("[page_facts] CJK characters count one word each", () => {
  assert.equal(facts(`<p>日本語のテキスト</p>`).text.words, 8);
  assert.equal(facts(`<p>中文 text 123 混合</p>`).text.words, 6);
  assert.equal(
    facts(`<p>한국어 문장입니다</p>`).text.words,
    2,
    "Hangul is spaced, counted by runs",
  );
  assert.equal(countWords("हिन्दी भाषा"), 2, "combining marks stay inside words");
  assert.equal(countWords("don't stop-me now, 3.14 😀"), 7);
});

Deno.test("[page_facts] text sample capped at 1000 characters", () => {
  const f = facts(`<p>${"lorem ipsum ".repeat(500)}</p>`);
  assert.equal(f.text.sample.length, 1000);
  assert.equal(f.text.words, 1000);
  assert.equal(f.text.chars, "lorem ipsum ".repeat(500).trim().length);
});

Deno.test("[page_facts] substantial paragraphs hold at least 20 words", () => {
  const twenty = Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ");
  const f = facts(`<p>${twenty}</p><p>short one</p><p><a href="/x">${twenty}</a> plus</p>
    <p>${Array.from({ length: 19 }, () => "w").join(" ")}</p>`);
  assert.equal(f.substantialParagraphs, 2);
});

// --- scripts and app shell -----------------------------------------------------------------------

Deno.test("[page_facts] scripts counted; inline bytes exclude data blocks and src scripts", () => {
  const f = facts(`
    <script src="/app.js"></script>
    <script src="/ignored.js">ignored()</script>
    <script>var s = "é";</script>
    <script type="module">import "x";</script>
    <script type="application/json" id="data">{"big":"data"}</script>
    <script type="application/ld+json">{"@type":"Thing"}</script>
    <script type="text/template"><div></div></script>`);
  assert.equal(f.scripts.count, 7);
  assert.equal(f.scripts.external, 2);
  const expected = new TextEncoder().encode(`var s = "é";` + `import "x";`).length;
  assert.equal(f.scripts.inlineBytes, expected);
});

Deno.test("[page_facts] app shell: empty root with a big bundle", () => {
  const bundle = `!function(){${"var a=1;".repeat(50_000)}}();`;
  const f = facts(`<!doctype html><html><head><title>App</title>
    <script>${bundle}</script></head><body><noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div></body></html>`);
  assert.equal(f.appShell.emptyMountNode, true);
  assert.equal(f.text.words, 0);
  assert.equal(f.noscriptWords, 9);
  assert.ok(f.scripts.inlineBytes > 400_000);
});

Deno.test("[page_facts] app shell: server-rendered page has no empty mount node", () => {
  const f = facts(`<body><div id="__next" data-reactroot=""><main><h1>Server rendered</h1>
    <p>Real content</p></main></div>
    <script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body>`);
  assert.equal(f.appShell.emptyMountNode, false);
  assert.deepEqual(f.appShell.markers.sort(), ["__NEXT_DATA__", "data-reactroot"]);
});

Deno.test("[page_facts] app shell: whitespace-only mount is empty, text-only is not", () => {
  assert.equal(facts(`<div id="app">\n   \n</div>`).appShell.emptyMountNode, true);
  assert.equal(facts(`<div id="app"><!-- ssr --></div>`).appShell.emptyMountNode, true);
  assert.equal(facts(`<div id="app">Hello</div>`).appShell.emptyMountNode, false);
  assert.equal(facts(`<div id="app"><span></span></div>`).appShell.emptyMountNode, false);
  assert.equal(facts(`<div id="main"></div>`).appShell.emptyMountNode, false);
  assert.equal(facts(`<div id="___gatsby">`).appShell.emptyMountNode, true, "unclosed at EOF");
});

Deno.test("[page_facts] app shell framework markers", () => {
  const f = facts(`<html data-server-rendered="true"><body data-sveltekit-preload-data="hover">
    <app-root ng-version="17.0.0"></app-root>
    <script>window.__NUXT__=(function(a){return {}})(1)</script>
    <script id="__NUXT_DATA__" type="application/json">[]</script>
    <script>self.__next_f.push([1,""])</script><astro-island uid="1"></astro-island></body></html>`);
  assert.deepEqual(f.appShell.markers.sort(), [
    "__NUXT_DATA__",
    "__NUXT__",
    "__next_f",
    "astro-island",
    "data-server-rendered",
    "data-sveltekit",
    "ng-version",
  ]);
});

// --- semantic elements and times ------------------------------------------------------------------

Deno.test("[page_facts] semantic element counts and time datetimes", () => {
  const f = facts(`<header></header><nav></nav><main><article><section></section><section></section>
    <time datetime=" 2024-05-01 ">May</time><time>no attr</time></article><aside></aside></main><footer></footer>`);
  assert.deepEqual(f.semantic, {
    main: 1,
    article: 1,
    nav: 1,
    header: 1,
    footer: 1,
    section: 2,
    aside: 1,
    time: 2,
  });
  assert.deepEqual(f.times, ["2024-05-01"]);
  const many = facts(
    Array.from({ length: 30 }, (_, i) => `<time datetime="2024-01-${i}">t</time>`).join(""),
  );
  assert.equal(many.times.length, PAGE_FACTS_LIMITS.times);
});

// --- malformed and hostile input ------------------------------------------------------------------

Deno.test("[page_facts] missing html/head/body still yields facts", () => {
  const f = facts(
    `<title>Bare</title><meta name="description" content="d"><h1>Heading</h1><p>Some text</p>`,
  );
  assert.equal(f.title, "Bare");
  assert.equal(f.metaDescription, "d");
  assert.deepEqual(f.headings, [{ level: 1, text: "Heading" }]);
  assert.equal(f.text.sample, "Heading Some text");
  assert.equal(f.hasBody, false);
});

Deno.test("[page_facts] unclosed head ends at the first body content", () => {
  const f = facts(
    `<html><head><title>T</title><meta charset="utf-8"><div>Content here</div><p>More</p>`,
  );
  assert.equal(f.text.sample, "Content here More");
  const stray = facts(`<html><head><title>T</title>Stray text</head><body>Body</body></html>`);
  assert.equal(stray.text.sample, "Stray text Body");
  assert.equal(stray.hasBody, true);
});

Deno.test("[page_facts] text in unusual places", () => {
  const f = facts(
    `before html<html>in html<head></head>between<body>in body</body>after body</html>after html`,
  );
  assert.equal(f.text.sample, "before html in html between in body after body after html");
});

Deno.test("[page_facts] malformed markup is tolerated", () => {
  const f = facts(`<div><p>Unclosed <b>bold <i>both</b> italic</i></p></span></div></div>
    <a href="/one">one <a href="/two">two</a><p>para<h2>Heading</h3>
    <img src="/x.png" alt=broken alt><<<>>> &bogus; &#xZZ; </td></tr></table>`);
  assert.deepEqual(f.links.map((l) => [l.href, l.text]), [
    ["https://www.example.com/one", "one"],
    ["https://www.example.com/two", "two"],
  ]);
  assert.equal(f.headings[0].text.startsWith("Heading"), true);
  assert.ok(f.text.words > 5);
});

Deno.test("[page_facts] empty and garbage input do not throw", () => {
  for (
    const input of [
      "",
      "   ",
      "<",
      "</>",
      "<!--",
      "<script>",
      "<![CDATA[",
      "\u0000\uFFFF\uD800",
      "<a href",
    ]
  ) {
    const f = facts(input);
    assert.equal(typeof f.elementCount, "number");
  }
});

Deno.test("[page_facts] element count and max depth", () => {
  const f = facts(`<html><body><div><p><span>x</span></p></div><br></body></html>`);
  assert.equal(f.elementCount, 6);
  assert.equal(f.maxDepth, 5);
  assert.equal(f.hasBody, true);
});

Deno.test("[page_facts] linear parser emits exactly the stock parser's events", () => {
  const events = (P: typeof Parser, html: string) => {
    const out: string[] = [];
    new P({
      onopentag: (name, attribs) => out.push(`+${name}${JSON.stringify(attribs)}`),
      onclosetag: (name, implied) => out.push(`-${name}${implied ? "!" : ""}`),
      ontext: (text) => out.push(`#${text}`),
    }, { decodeEntities: true }).end(html);
    return out;
  };
  const cases = [
    `<p>a<p>b<div>c</p>d`,
    `<svg><title>x</title><foreignObject><div>y</div></foreignObject><clipPath/></svg><title>z</title>`,
    `<table><tr><td>1<td>2<tr><td>3</table>`,
    `<b><i>x</b>y</i></span></p></br>`,
    `<form><form></form></form><ul><li>a<li>b</ul>`,
    `<div><span><a href=1>x<a>y`,
    `<math><mi>x</mi><annotation-xml><svg><rect/></svg></annotation-xml></math><p>after`,
    `<select><option>a<option>b<optgroup><option>c</select><h1>t<h2>u`,
  ];
  for (const html of cases) {
    assert.deepEqual(events(LinearParser, html), events(Parser, html), html);
  }
});

Deno.test("[page_facts] deeply nested 100,000-level page does not throw", () => {
  const depth = 100_000;
  const closed = "<div>".repeat(depth) + "deep text" + "</div>".repeat(depth);
  const start = performance.now();
  const f = facts(closed);
  assert.equal(f.maxDepth, depth);
  assert.equal(f.elementCount, depth);
  assert.equal(f.text.sample, "deep text");
  const unclosed = facts(
    "<b>".repeat(depth) + "<svg>".repeat(1000) + "<a href='/x'>x</a>" + "</x>".repeat(depth),
  );
  assert.equal(unclosed.maxDepth, depth + 1000 + 1);
  const elapsed = performance.now() - start;
  // The stock htmlparser2 stack is quadratic in depth (seconds here); ours stays linear.
  assert.ok(elapsed < 5000, `took ${elapsed.toFixed(0)} ms`);
});

Deno.test("[page_facts] a 2 MB page with 50,000 links is capped at 2000 links and stays fast", () => {
  const parts = [`<html><head><title>Links</title></head><body><ul>`];
  for (let i = 0; i < 50_000; i++) parts.push(`<li><a href="/p/${i}">Item ${i}</a></li>`);
  parts.push(`</ul><p>${"filler words ".repeat(20_000)}</p>`);
  parts.push(`<footer><a href="/about">About</a><a href="/contact-us">Contact</a>`);
  parts.push(`<a href="/privacy">Privacy</a></footer></body></html>`);
  const html = parts.join("");
  assert.ok(html.length >= 2_000_000, `page is ${html.length} chars`);
  const start = performance.now();
  const f = facts(html);
  const elapsed = performance.now() - start;
  assert.equal(f.links.length, PAGE_FACTS_LIMITS.links);
  assert.equal(f.links[1999].href, "https://www.example.com/p/1999");
  assert.deepEqual(f.trustLinks, {
    about: "https://www.example.com/about",
    contact: "https://www.example.com/contact-us",
    privacy: "https://www.example.com/privacy",
  });
  assert.equal(f.elementCount > 100_000, true);
  assert.ok(elapsed < 3000, `took ${elapsed.toFixed(0)} ms`);
});

Deno.test("[page_facts] a byline's rel=author link counts even when the menu linked the same page", () => {
  // The menu's "About us" and the byline's author both point at /about: the second says who
  // wrote the page, so it is kept with its rel and its text (issue 42's byline fix relies on it).
  const f = facts(
    `<nav><a href="/about">About us</a></nav><main><p>By <a rel="author" href="/about">Ana Baker</a></p><a href="/about">About</a></main>`,
  );
  assert.deepEqual(
    f.links.filter((l) => l.href === "https://www.example.com/about").map((l) => [l.rel, l.text]),
    [["", "About us"], ["author", "Ana Baker"]],
  );
});
