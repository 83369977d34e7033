/**
 * One corroborated site-name choice (lib/engines/structured/site_name.ts) for the generator, the
 * visibility report and the off-site lookups, worked out once per page
 * (lib/engines/structured/page_structure.ts).
 */
import assert from "node:assert/strict";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { pageStructure } from "../lib/engines/structured/page_structure.ts";
import { siteNameChoice } from "../lib/engines/structured/site_name.ts";
import { flattenJsonLd } from "../lib/engines/structured/page_graph.ts";
import type { Result } from "../lib/engines/structured/record.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { OffSiteCache } from "../lib/engines/offsite/cache.ts";
import type { FetchResult, GuardedFetcher } from "../lib/kit/net/types.ts";

/** A news article whose og:site_name is its section, as some publishers write it. */
const SECTION_PAGE = `<!doctype html><html lang="en"><head>
<title>Council approves the new bridge | Newswire</title>
<meta property="og:site_name" content="U.S.">
<meta property="og:type" content="article">
<meta property="og:title" content="Council approves the new bridge">
<meta property="article:published_time" content="2026-11-02T08:00:00Z">
</head><body><main><article><h1>Council approves the new bridge</h1>
<p>The council voted on Tuesday to build the bridge across the river, after two years of debate.</p>
</article></main></body></html>`;

function analyse(html: string, url: string): Result {
  return analysePage(html, {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 0,
  }, new URL(url).hostname.replace(/^www\./, ""));
}

const choose = (html: string, url: string) => {
  const facts = extractPageFacts(html, url);
  return siteNameChoice(facts, flattenJsonLd(facts.jsonLd), new URL(url).hostname).name;
};

Deno.test("[site name] a short section-like og:site_name that nothing agrees with loses to the title's brand", () => {
  const url = "https://www.newswire.test/us/council-bridge";
  assert.equal(choose(SECTION_PAGE, url), "Newswire");
  const r = analyse(SECTION_PAGE, url);
  assert.equal(r.facts.siteName, "Newswire");
  const graph = r.generated.graph["@graph"];
  const site = graph.find((n) => n["@type"] === "WebSite")!;
  assert.equal(site.name, "Newswire");
  const org = graph.find((n) => n["@type"] === "Organization")!;
  assert.equal(org.name, "Newswire");
  assert.ok(!JSON.stringify(graph).includes('"U.S."'));
});

Deno.test("[site name] corroboration: agreeing sources win, legal forms agree, lone titles need support", () => {
  // og:site_name and the Organization agree (a legal form does not split a brand); the stronger
  // source (the markup) gives the spelling.
  assert.equal(
    choose(
      `<title>Home | Spiceworks</title><meta property="og:site_name" content="Spiceworks">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Spiceworks Inc"}</script>`,
      "https://spiceworks.test/",
    ),
    "Spiceworks Inc",
  );
  // A title that is one phrase is the page's subject unless something agrees with it.
  assert.equal(choose("<title>Shoe</title>", "https://acme.test/p/1"), null);
  assert.equal(choose("<title>Acme</title>", "https://acme.test/"), "Acme");
  // A name in the markup that spells the domain beats a title tail that does not.
  assert.equal(
    choose(
      `<title>Bean stew | Easy Vegan Recipes</title><script type="application/ld+json">
      {"@context":"https://schema.org","@type":"Recipe","name":"Bean stew","author":{"@type":"Person","name":"Blue Bean"}}</script>`,
      "https://bluebean.test/stew",
    ),
    "Blue Bean",
  );
  // An explicit og:site_name that nothing contradicts is taken over a title tail.
  assert.equal(
    choose(
      `<title>Stew | Easy Recipes</title><meta property="og:site_name" content="Kitchen Co">`,
      "https://bluebean.test/stew",
    ),
    "Kitchen Co",
  );
});

Deno.test("[site name] microdata and RDFa names count, not only JSON-LD", () => {
  const html = `<html><head><title>Opening hours</title></head><body>
    <div itemscope itemtype="https://schema.org/Bakery"><span itemprop="name">Crumb &amp; Co</span></div>
    </body></html>`;
  const url = "https://crumb.test/hours";
  const facts = extractPageFacts(html, url);
  assert.equal(pageStructure(facts, html, url, "crumb.test").siteName, "Crumb & Co");
  assert.equal(analyse(html, url).facts.siteName, "Crumb & Co");
});

Deno.test("[site name] the page's structure is worked out once per page", () => {
  const url = "https://www.newswire.test/";
  const facts = extractPageFacts(SECTION_PAGE, url);
  const a = pageStructure(facts, SECTION_PAGE, url, "newswire.test");
  const b = pageStructure(facts, SECTION_PAGE, url, "newswire.test");
  assert.equal(a, b, "the same object: nothing flattened or chosen twice");
  assert.equal(a.siteName, "Newswire");
});

Deno.test("[site name] the visibility scan flow asks the page structure, not its own copies", async () => {
  for (
    const file of ["../lib/engines/visibility/scan.ts", "../lib/engines/visibility/audit/page.ts"]
  ) {
    const src = await Deno.readTextFile(new URL(file, import.meta.url));
    assert.doesNotMatch(src, /flattenJsonLd\(|nameSources\(|pickSiteName\(|chooseSiteName\(/, file);
    assert.doesNotMatch(src, /extractPage\(/, file);
    assert.match(src, /pageStructure\(/, file);
  }
});

Deno.test("[site name] the off-site lookup searches by the one corroborated name", async () => {
  const asked: string[] = [];
  const answer = (url: string, status: number, body: string, type = "text/html"): FetchResult => ({
    url,
    finalUrl: url,
    status,
    headers: { "content-type": type },
    body,
    bytes: body.length,
    truncated: false,
    redirects: [],
    ttfbMs: 1,
    totalMs: 1,
    remoteAddress: "192.0.2.1",
  });
  const fetcher: GuardedFetcher = {
    fetch(url) {
      asked.push(url);
      const u = new URL(url);
      if (u.hostname === "newswire.test" && u.pathname === "/") {
        return Promise.resolve(answer(url, 200, SECTION_PAGE));
      }
      return Promise.resolve(answer(url, 404, "not here", "text/plain"));
    },
    close: () => Promise.resolve(),
  };
  const config = loadConfig({
    WIKIDATA_API_URL: "https://wikidata.test/w/api.php",
    WIKIPEDIA_API_URL: "https://wikipedia.test/w/api.php",
    COMMONCRAWL_INDEX_URL: "https://commoncrawl.test/collinfo.json",
    OFFSITE_TIMEOUT_MS: "2000",
  });
  const { record } = await scanSite("newswire.test", {
    config,
    fetcher,
    offSiteCache: new OffSiteCache(),
    pages: 1,
    now: () => new Date("2026-11-26T12:00:00Z"),
  });
  assert.equal(record.status, "ok");
  const lookups = asked.filter((u) => /wikidata\.test|wikipedia\.test/.test(u)).map((u) =>
    decodeURIComponent(u).replace(/\+/g, " ")
  );
  assert.ok(lookups.some((u) => u.includes("Newswire")), lookups.join("\n"));
  assert.ok(!lookups.some((u) => u.includes("U.S.")), lookups.join("\n"));
});

Deno.test("[site name] the visibility report's fixes name the site by the same choice", async () => {
  const { analyseSnapshot } = await import("../lib/engines/visibility/scan.ts");
  const { fixContext } = await import("./helpers/fix_context.ts");
  const ctx = fixContext({ url: "https://www.newswire.test/", html: SECTION_PAGE });
  const result = analyseSnapshot(ctx.snapshot, null, new Date("2026-11-26T12:00:00Z"));
  const text = JSON.stringify(result);
  assert.ok(!/FILL-IN[^"]*\| U\.S\./.test(text), "no title fix named after the section");
});
