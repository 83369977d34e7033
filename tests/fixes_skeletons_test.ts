/**
 * The generated skeletons and identity links on our own fixture pages, one per kind of page the
 * scanner meets: a page that links other people's profiles, share dialogs and posts; a site with
 * login, sign-up, tracking and other-host links; a page that states no name; Open Graph without
 * an image. The same property checks run on the real pages in tests/fixes_corpus_test.ts.
 */
import assert from "node:assert/strict";
import { codeBlocksOf } from "../lib/engines/visibility/fix_text.ts";
import { identityLinks } from "../lib/engines/visibility/same_as.ts";
import type { Issue, Result } from "../lib/engines/visibility/record.ts";
import { scoreSite } from "../lib/engines/visibility/score.ts";
import { fixContext, type FixtureSite } from "./helpers/fix_context.ts";
import {
  assertJsonLdFix,
  assertLlmsFix,
  assertSameAsFix,
  assertSitemapFix,
  assertWellFormedHow,
} from "./helpers/fix_checks.ts";

const URL_ = "https://www.acme-tools.test/";

/** A news-like home page of "Acme Tools" that links many things that are not Acme's identity. */
const NEWS_PAGE = `<!doctype html><html lang="en"><head>
<title>Cordless drills compared | Acme Tools</title>
<meta name="description" content="Independent tests of power tools for home workshops.">
<meta property="og:site_name" content="Acme Tools">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"NewsArticle","headline":"Cordless drills compared","author":{"@type":"Person","name":"Jo Writer","url":"https://x.com/jowriter"},
  "about":{"@type":"Organization","name":"Drill Maker Inc","url":"https://drillmaker.test/"}},
 {"@type":"Organization","name":"Acme Tools","url":"https://www.acme-tools.test/","sameAs":"https://www.linkedin.com/company/acme-tools"}
]}</script>
</head><body>
<header><nav>
 <a href="/">Home</a><a href="/reviews/">Reviews</a><a href="/guides/">Guides</a>
 <a href="/login?next=/">Log in</a><a href="/account/signup">Sign up</a><a href="/subscribe">Subscribe</a>
 <a href="/reviews/?utm_source=nav">Reviews (tracked)</a><a href="https://shop.acme-tools.test/">Shop</a>
 <a href="/private/drafts">Drafts</a>
</nav></header>
<main><article><h1>Cordless drills compared</h1>
 <p>By <a href="https://x.com/jowriter">Jo Writer</a>. We tested ten drills.
 See <a href="https://www.wikidata.org/wiki/Q999999">Drill Maker</a>, its
 <a href="https://github.com/drillmaker/firmware">firmware repository</a>, a
 <a href="https://www.youtube.com/watch?v=abc123">test video</a> and a
 <a href="https://www.pinterest.com/pin/12345/">pin</a>.</p>
 <p><a href="https://twitter.com/intent/tweet?url=https://www.acme-tools.test/">Share on X</a>
 <a href="https://www.facebook.com/sharer/sharer.php?u=https://www.acme-tools.test/">Share on Facebook</a></p>
</article></main>
<footer>
 <a href="https://x.com/AcmeTools">Follow us</a>
 <a href="https://www.youtube.com/@acmetoolshq">Our channel</a>
 <a rel="me" href="https://social.example/@acme">Mastodon</a>
 <a href="/about">About</a>
</footer></body></html>`;

const NEWS_ROBOTS = "User-agent: *\nDisallow: /private/\n";

function scan(site: FixtureSite): { ctx: ReturnType<typeof fixContext>; result: Result } {
  const ctx = fixContext(site);
  return { ctx, result: scoreSite(ctx) };
}

/** The issue that resolves check `id` (its own, or the one its cause merged it into). */
function issue(r: Result, id: string): Issue {
  const i = r.topIssues.find((x) => x.id === id || x.resolves?.some((c) => c.id === id));
  assert.ok(i, `issue ${id} in ${r.topIssues.map((x) => x.id)}`);
  return i;
}

Deno.test("[fixes skeletons] sameAs lists the organisation's own profiles and nothing else", () => {
  const { ctx, result } = scan({ url: URL_, html: NEWS_PAGE, robots: NEWS_ROBOTS });
  assert.deepEqual(identityLinks(ctx).map((l) => [l.source, l.url]), [
    ["markup", "https://www.linkedin.com/company/acme-tools"],
    ["rel-me", "https://social.example/@acme"],
    ["handle", "https://x.com/AcmeTools"],
    ["handle", "https://www.youtube.com/@acmetoolshq"],
  ]);
  // One sameAs in markup: the structured.same_as signal warns, so the fix is offered.
  const fix = issue(result, "structured.same_as");
  // It is the home page's graph: one fix with the other structured-data checks.
  assert.equal(fix.fix.cause?.key, "home:json-ld");
  const urls = assertSameAsFix(ctx, fix);
  assert.equal(urls.length, 4);
  assert.doesNotMatch(urls.join(" "), /jowriter|drillmaker|Q999999|watch|pin\/|intent|sharer/);
  assert.doesNotMatch(fix.fix.how, /already on your page/);
});

Deno.test("[fixes skeletons] with no evidence of a profile, sameAs is a marked template", () => {
  const html = NEWS_PAGE.replace(/<footer>[\s\S]*<\/footer>/, "").replace(
    /,\s*\{"@type":"Organization","name":"Acme Tools"[^\n]*\n/,
    "\n",
  );
  const { ctx, result } = scan({ url: URL_, html, robots: NEWS_ROBOTS });
  assert.deepEqual(identityLinks(ctx), []);
  const fix = issue(result, "structured.same_as");
  const urls = assertSameAsFix(ctx, fix);
  assert.ok(urls.length >= 2 && urls.every((u) => u.includes("FILL-IN")), urls.join(" "));
  // The step that places the graph says what to write in place of each FILL-IN.
  assert.match(fix.fix.how, /FILL-IN values only you can write[^\n]*sameAs/);
});

Deno.test("[fixes skeletons] the JSON-LD graph uses the same identity links and validates", () => {
  const { ctx, result } = scan({ url: URL_, html: NEWS_PAGE, robots: NEWS_ROBOTS });
  const fix = result.topIssues.find((i) => i.fix.how.includes("application/ld+json"));
  assert.ok(fix, "a JSON-LD fix");
  assertJsonLdFix(ctx, fix);
  const [script] = codeBlocksOf(fix.fix.how);
  const graph = JSON.parse(script.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, ""));
  const org = graph["@graph"].find((n: { "@type": string }) => n["@type"] === "Organization");
  assert.deepEqual(org.sameAs, identityLinks(ctx).map((l) => l.url));
});

Deno.test("[fixes skeletons] a page naming no one gets one graph whose FILL-INs the step names", () => {
  const html =
    `<!doctype html><html lang="en"><head><title>Everything you ever wanted to know about garden sheds and more</title></head><body><main><h1>Sheds</h1><p>Text.</p></main></body></html>`;
  const { ctx, result } = scan({ url: "https://shedfacts.test/", html });
  assert.equal(ctx.siteName, null);
  const fix = issue(result, "structured.jsonld");
  assert.match(fix.fix.what, /organisation, site and page/);
  assertJsonLdFix(ctx, fix);
  // One graph: a FILL-IN completes the node it belongs to (a second block cannot: readers do
  // not merge nodes across blocks), and the sentence that places it names each.
  const [graph, ...more] = codeBlocksOf(fix.fix.how);
  assert.equal(more.length, 0);
  assert.match(graph, /"@type": "Organization"[^}]*"name": "FILL-IN: your organisation's name"/);
  assert.match(graph, /"@type": "WebSite"[^}]*"name": "FILL-IN: your site's name"/);
  assert.match(graph, /"logo": "FILL-IN: https URL of your logo/);
  assert.match(
    fix.fix.how,
    /^Paste into the <head> of https:\/\/shedfacts\.test\/[^\n]*FILL-IN values only you can write[^\n]*name of who is behind the site[^\n]*logo[^\n]*your site's name/,
  );
});

Deno.test("[fixes skeletons] the sitemap: one host, robots-allowed content pages, no lastmod", () => {
  const { ctx, result } = scan({ url: URL_, html: NEWS_PAGE, robots: NEWS_ROBOTS });
  const locs = assertSitemapFix(ctx, issue(result, "discovery.sitemap"));
  assert.deepEqual(locs, [URL_, `${URL_}reviews/`, `${URL_}guides/`, `${URL_}about`]);
});

Deno.test("[fixes skeletons] the sitemap follows the crawlers the site admits", () => {
  const robots =
    "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: OAI-SearchBot\nAllow: /\nDisallow: /guides/\n";
  const { ctx, result } = scan({ url: URL_, html: NEWS_PAGE, robots });
  const locs = assertSitemapFix(ctx, issue(result, "discovery.sitemap"));
  assert.ok(!locs.includes(`${URL_}guides/`), locs.join(" "));
  assert.ok(locs.includes(`${URL_}reviews/`));
});

Deno.test("[fixes skeletons] the llms.txt skeleton links content pages by their own texts", () => {
  const { ctx, result } = scan({ url: URL_, html: NEWS_PAGE, robots: NEWS_ROBOTS });
  const fix = issue(result, "discovery.llms_txt");
  assertLlmsFix(ctx, fix);
  const [md] = codeBlocksOf(fix.fix.how);
  assert.match(md, /^# Acme Tools\n\n> Independent tests of power tools for home workshops\.\n/);
  assert.match(md, /- \[Reviews\]\(https:\/\/www\.acme-tools\.test\/reviews\/\): FILL-IN/);
  assert.doesNotMatch(md, /Log in|Sign up|Subscribe|Drafts|utm_/);
  assert.doesNotMatch(md, /Sitemap/, "no sitemap link when the site has none");
  const withSitemap = scan({
    url: URL_,
    html: NEWS_PAGE,
    robots: NEWS_ROBOTS,
    sitemap:
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${URL_}</loc></url></urlset>`,
  });
  assert.match(
    codeBlocksOf(issue(withSitemap.result, "discovery.llms_txt").fix.how)[0],
    /- \[Sitemap\]\(https:\/\/www\.acme-tools\.test\/sitemap\.xml\)/,
  );
});

Deno.test("[fixes skeletons] og:image is offered only for an image the page names", async (t) => {
  await t.step("no image named: a separate fill-in, no made-up file", () => {
    const { result } = scan({ url: URL_, html: NEWS_PAGE, robots: NEWS_ROBOTS });
    const how = issue(result, "technical.open_graph").fix.how;
    const [facts, fill] = codeBlocksOf(how);
    assert.doesNotMatch(facts, /og:image/);
    assert.match(fill, /<meta property="og:image" content="FILL-IN/);
    assert.doesNotMatch(how, /og-image\.png/);
  });
  await t.step("twitter:image named: used as og:image", () => {
    const html = NEWS_PAGE.replace(
      "</head>",
      '<meta name="twitter:image" content="/img/cover.jpg"></head>',
    );
    const { result } = scan({ url: URL_, html, robots: NEWS_ROBOTS });
    const [facts] = codeBlocksOf(issue(result, "technical.open_graph").fix.how);
    assert.match(
      facts,
      /<meta property="og:image" content="https:\/\/www\.acme-tools\.test\/img\/cover\.jpg">/,
    );
  });
});

Deno.test("[fixes skeletons] a canonical to another site is explained, not overruled", () => {
  const html = NEWS_PAGE.replace(
    "</head>",
    '<link rel="canonical" href="https://original-paper.test/drills"></head>',
  );
  const { result } = scan({ url: URL_, html, robots: NEWS_ROBOTS });
  const how = issue(result, "technical.canonical").fix.how;
  assert.match(how, /syndicated copy/);
  assert.match(how, /keep it/);
  assert.deepEqual(codeBlocksOf(how), [`<link rel="canonical" href="${URL_}">`]);
});

Deno.test("[fixes skeletons] page text in HTML snippets is escaped", () => {
  const html = NEWS_PAGE.replace(
    '<meta property="og:site_name" content="Acme Tools">',
    '<meta property="og:site_name" content="Acme &quot;><script>alert(1)</script>">',
  );
  const { result } = scan({ url: URL_, html, robots: NEWS_ROBOTS });
  for (const i of result.topIssues) {
    assertWellFormedHow(i);
    for (const code of codeBlocksOf(i.fix.how)) {
      assert.doesNotMatch(code, /<script>alert/, `${i.id}: escaped`);
    }
  }
});
