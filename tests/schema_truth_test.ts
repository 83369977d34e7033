/**
 * Issue 16: the schema service on markup as the standards and Google define it. Every page here
 * is written for this test (patterns seen on real pages, not copies of them).
 */
import assert from "node:assert/strict";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import type { Result } from "../lib/engines/structured/record.ts";
import { isCalendarDate } from "../lib/engines/structured/google/rule_kit.ts";
import { googleFeatures } from "../lib/engines/structured/google/registry.ts";
import { validateItems } from "../lib/engines/structured/validate.ts";
import { linkRefs } from "../lib/engines/structured/jsonld.ts";
import type { DetectedItem } from "../lib/engines/structured/record.ts";
import type { JsonObject } from "../lib/engines/structured/terms.ts";
import { fixtureNames } from "./helpers/schema_fixtures.ts";
import { badgeFor } from "../lib/kit/ui/badge.ts";
import { analyseFixture } from "./helpers/schema_fixtures.ts";
import { schemaService } from "../lib/features/schema/service.ts";

const URL_ = "https://shop.test/p/1";

function analyse(html: string, url = URL_): Result {
  return analysePage(html, {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 0,
  }, new URL(url).hostname);
}

const jsonld = (value: unknown, head = "") =>
  `<!doctype html><html><head>${head}<script type="application/ld+json">${
    JSON.stringify(value)
  }</script></head><body></body></html>`;

const errors = (r: Result) =>
  r.findings.filter((f) => f.severity === "error").map((f) => `${f.path} ${f.rule}`);

// ---------------------------------------------------------------------------------------------
// 1. Extraction as the standards define it

Deno.test("[schema truth] RDFa Core rel: an incomplete triple is completed by the typed nodes below", () => {
  const html = `<div vocab="https://schema.org/" typeof="Product">
    <span property="name">Anvil</span>
    <div rel="review"><div typeof="Review">
      <div rel="author"><div typeof="Person"><span property="name">Ann</span></div></div>
    </div></div>
    <div rel="image" resource="https://shop.test/a.jpg"></div>
    <a rel="license" href="https://licenses.test/by">licence</a>
    <a rel="nofollow noopener" href="https://elsewhere.test/">a link</a>
  </div>`;
  const [item] = extractPage(html, URL_, "shop.test").detected.rdfa;
  assert.deepEqual(item.types, ["Product"]);
  const p = item.properties;
  assert.deepEqual(p.review, { "@type": "Review", author: { "@type": "Person", name: "Ann" } });
  assert.equal(p.image, "https://shop.test/a.jpg");
  assert.equal(p.license, "https://licenses.test/by");
  assert.ok(!("nofollow" in p) && !("noopener" in p), "HTML link types are not properties");
});

Deno.test("[schema truth] RDFa: typed href is the node's IRI, resource starts a subject, initial-context prefixes", () => {
  const html = `<ol vocab="https://schema.org/" typeof="BreadcrumbList">
      <li property="itemListElement" typeof="ListItem">
        <a property="item" typeof="WebPage" href="/shoes"><span property="name">Shoes</span></a>
        <meta property="position" content="1">
      </li>
    </ol>
    <div vocab="https://schema.org/">
      <div typeof="Periodical" resource="#journal"><span property="name">J</span></div>
      <span resource="#journal"><span property="issn">1234-5678</span></span>
    </div>
    <div typeof="dcat:Dataset" about="#d"><span property="dcat:keyword">rain</span></div>`;
  const items = extractPage(html, URL_, "shop.test").detected.rdfa;
  const crumb = items[0].properties.itemListElement as JsonObject;
  assert.deepEqual(crumb.item, {
    "@type": "WebPage",
    "@id": "https://shop.test/shoes",
    name: "Shoes",
  });
  const journal = items.filter((i) => i.id === "https://shop.test/p/1#journal");
  assert.equal(journal.length, 1, "one subject per IRI");
  assert.equal(journal[0].properties.issn, "1234-5678");
  const dataset = items.find((i) => i.id === "https://shop.test/p/1#d")!;
  assert.deepEqual(dataset.types, ["http://www.w3.org/ns/dcat#Dataset"]);
  assert.equal(dataset.properties["http://www.w3.org/ns/dcat#keyword"], "rain");
});

Deno.test("[schema truth] microdata: itemprop with no enclosing item is read, typed valueless itemprop too", () => {
  const html = `<html itemscope itemprop="VideoObject" itemtype="https://schema.org/VideoObject">
    <head><title itemprop="name">Clip</title></head><body>
    <div itemprop="interactionStatistic" itemscope itemtype="https://schema.org/InteractionCounter">
      <meta itemprop="interactionType" itemtype="https://schema.org/WatchAction">
      <meta itemprop="userInteractionCount" content="12">
    </div></body></html>`;
  const items = extractPage(html, URL_, "shop.test").detected.microdata;
  assert.equal(items.length, 1);
  assert.deepEqual(items[0].types, ["VideoObject"]);
  assert.equal(items[0].properties.name, "Clip");
  const counter = items[0].properties.interactionStatistic as JsonObject;
  assert.deepEqual(counter.interactionType, { "@type": "WatchAction" });
  // An itemref'd item stays a property of the item that refers to it.
  const ref =
    `<div itemscope itemtype="https://schema.org/Person"><div itemprop="makesOffer" itemscope
    itemtype="https://schema.org/Offer" itemref="car"></div></div>
    <div id="car" itemprop="itemOffered" itemscope itemtype="https://schema.org/Car"><span itemprop="name">Golf</span></div>`;
  const refItems = extractPage(ref, URL_, "shop.test").detected.microdata;
  assert.equal(refItems.length, 1);
});

Deno.test("[schema truth] JSON-LD: schema.org's type/id aliases; a nested node without @type is no error", () => {
  const r = analyse(jsonld({
    "@context": "https://schema.org",
    "@graph": [{
      type: "BreadcrumbList",
      id: "#trail",
      itemListElement: [
        { type: "ListItem", position: 1, item: { "@id": "https://shop.test/", name: "Home" } },
        { type: "ListItem", position: 2, item: { "@id": "https://shop.test/p/", name: "Shoes" } },
      ],
    }],
  }));
  const crumb = r.detected.jsonLd.find((i) => i.types.includes("BreadcrumbList"))!;
  assert.equal(crumb.id, "https://shop.test/p/1#trail");
  assert.deepEqual(errors(r), []);
  // ...and the generator keeps the names and URLs of such a trail.
  const trail = r.generated.graph["@graph"].find((n) => n["@type"] === "BreadcrumbList")!;
  const text = JSON.stringify(trail);
  assert.ok(text.includes("Shoes") && text.includes("https://shop.test/p/"), text);
});

// ---------------------------------------------------------------------------------------------
// 2. Google's rules where Google applies them

Deno.test("[schema truth] product snippets only on top-level Products; ProductGroup has its own rules", () => {
  const r = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "Event",
    name: "Gig",
    startDate: "2030-05-01T20:00",
    location: { "@type": "Place", name: "Hall", address: "1 Road" },
    offers: {
      "@type": "Offer",
      price: "10",
      priceCurrency: "EUR",
      itemOffered: { "@type": "Product", name: "Ticket" },
    },
  }));
  assert.ok(!r.findings.some((f) => f.rule === "google:Product snippets"), errors(r).join("; "));
  const group = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    name: "Shirt",
    productGroupID: "S1",
    variesBy: "https://schema.org/size",
    hasVariant: [{
      "@type": "Product",
      name: "Shirt S",
      image: "https://shop.test/s.jpg",
      offers: { "@type": "Offer", price: "10", priceCurrency: "EUR" },
    }],
  }));
  assert.deepEqual(errors(group), []);
  assert.ok(group.eligibility!.some((e) => e.feature === "Product variants"));
});

Deno.test("[schema truth] product snippets and merchant listings are different features", () => {
  const base = { "@context": "https://schema.org", "@type": "Product", name: "Kettle" };
  const snippetOnly = analyse(jsonld({
    ...base,
    aggregateRating: { "@type": "AggregateRating", ratingValue: "60%", ratingCount: 3 },
  }));
  assert.deepEqual(errors(snippetOnly), [], "60% is a rating Google accepts");
  assert.ok(!snippetOnly.eligibility!.some((e) => e.feature === "Merchant listing"));
  const sold = analyse(jsonld({
    ...base,
    offers: { "@type": "Offer", price: "20" },
    review: {
      "@type": "Review",
      author: { "@type": "Person", name: "Bo" },
      reviewRating: { "@type": "Rating", ratingValue: "6 / 10" },
    },
  }));
  const by = Object.fromEntries(sold.eligibility!.map((e) => [e.feature, e]));
  assert.equal(by["Merchant listing"].status, "not eligible");
  assert.ok(by["Merchant listing"].reasons.some((x) => x.includes("image")));
  assert.notEqual(
    by["Product snippets"].status,
    "not eligible",
    by["Product snippets"].reasons.join(),
  );
});

Deno.test("[schema truth] dates are real calendar dates", () => {
  assert.equal(isCalendarDate("2024-02-29"), true);
  assert.equal(isCalendarDate("2025-02-29"), false);
  assert.equal(isCalendarDate("2025-02-30"), false);
  assert.equal(isCalendarDate("2025-04-31"), false);
  assert.equal(isCalendarDate("2025-01-01T24:30"), false);
  assert.equal(isCalendarDate("2025-01-01T09:30:00+02:00"), true);
  const r = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "VideoObject",
    name: "Clip",
    thumbnailUrl: "https://shop.test/t.jpg",
    uploadDate: "2025-02-30",
  }));
  assert.ok(errors(r).some((e) => e.startsWith("VideoObject.uploadDate")), errors(r).join());
});

Deno.test("[schema truth] rules stay off comments, claim reviews and other pages' WebSite", () => {
  const comments = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "UserComments",
    commentText: "Nice",
  }));
  assert.ok(!comments.findings.some((f) => f.rule === "google:Event"));
  const claim = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "ClaimReview",
    claimReviewed: "The moon is cheese",
    author: { "@type": "Organization", name: "Checkers" },
    reviewRating: { "@type": "Rating", ratingValue: 1, alternateName: "False" },
    itemReviewed: { "@type": "Claim", author: { "@type": "Person", name: "X" } },
  }));
  assert.ok(!claim.findings.some((f) => f.rule === "google:Review snippet"));
  assert.ok(
    claim.eligibility!.some((e) => e.feature === "Fact check" && e.status === "not eligible"),
  );
  const site = { "@context": "https://schema.org", "@type": "WebSite", name: "Shop" };
  assert.ok(!analyse(jsonld(site)).findings.some((f) => f.rule === "google:Site name"));
  assert.ok(
    analyse(jsonld(site), "https://shop.test/").findings.some((f) => f.rule === "google:Site name"),
    "on the home page WebSite.url is required",
  );
});

Deno.test("[schema truth] job postings and software apps have Google's rules", () => {
  const job = analyse(
    jsonld({ "@context": "https://schema.org", "@type": "JobPosting", title: "Cook" }),
  );
  for (const p of ["description", "datePosted", "hiringOrganization", "jobLocation"]) {
    assert.ok(errors(job).includes(`JobPosting.${p} google:Job posting`), p);
  }
  const app = analyse(jsonld({
    "@context": "https://schema.org",
    "@type": "MobileApplication",
    name: "Notes",
    offers: { "@type": "Offer", price: "0" },
  }));
  assert.ok(errors(app).some((e) => e.endsWith("google:Software app")), errors(app).join());
  const names = new Set(googleFeatures().map((f) => f.name));
  for (const f of ["Job posting", "Software app", "Product snippets", "Merchant listing"]) {
    assert.ok(names.has(f), f);
  }
  for (const f of googleFeatures()) {
    assert.match(f.url, /^https:\/\/developers\.google\.com\/search\//);
    if (f.status === "deprecated") assert.match(f.since ?? "", /^\d{4}-\d{2}/, f.name);
    if (f.status === "supported") assert.equal(f.since, null, f.name);
  }
});

// ---------------------------------------------------------------------------------------------
// 3. Eligibility

Deno.test("[schema truth] eligibility per item and feature; no markup, no eligibility", () => {
  const full = analyseFixture("jsonld_recipe_valid");
  const recipe = full.eligibility!.find((e) => e.feature === "Recipe")!;
  assert.notEqual(recipe.status, "not eligible");
  assert.match(recipe.docs!, /recipe$/);
  const bad = analyse(
    jsonld({ "@context": "https://schema.org", "@type": "Recipe", name: "Soup" }),
  );
  const e = bad.eligibility!.find((x) => x.feature === "Recipe")!;
  assert.equal(e.status, "not eligible");
  assert.ok(e.reasons[0].includes("image"));
  assert.equal(bad.summary.eligible, 0);
  const none = analyse("<html><body><p>Hello</p></body></html>");
  assert.deepEqual(none.eligibility, []);
  assert.equal(none.summary.eligible, 0);
});

// ---------------------------------------------------------------------------------------------
// 4. The generated graph is never worse than the page's own

function validatesClean(r: Result): string[] {
  const graph = r.generated.graph["@graph"] as JsonObject[];
  const items: DetectedItem[] = graph.map((node, index) => ({
    index,
    source: "json-ld",
    id: node["@id"] as string,
    types: [node["@type"]].flat() as string[],
    properties: Object.fromEntries(Object.entries(node).filter(([k]) => !k.startsWith("@"))),
    refs: [],
    location: "generated",
  }));
  linkRefs(items, new Map(items.map((i) => [i.id!, i])));
  return validateItems({ jsonLd: items, microdata: [], rdfa: [] }).findings
    .filter((f) => f.severity === "error").map((f) => `${f.path}: ${f.message}`);
}

Deno.test("[schema truth] the generated graph is never worse than the page's own markup", () => {
  const worse: [string, string[]][] = [];
  for (const name of fixtureNames()) {
    const r = analyseFixture(name);
    const own = new Set(r.findings.filter((f) => f.severity === "error").map((f) => f.path));
    const generated = validatesClean(r);
    // A page with valid markup (or none) gets a graph with no error at all; a page with errors
    // gets no error its own markup does not already have.
    // (A required property the page gave only a broken value for counts as the same error.)
    const extra = generated.map((e) => e.slice(0, e.indexOf(": "))).filter((path) =>
      !own.has(path) && ![...own].some((o) => o.startsWith(`${path}.`))
    );
    if (extra.length || (!own.size && generated.length)) worse.push([name, [...own, ...generated]]);
  }
  assert.deepEqual(worse, []);
});

Deno.test("[schema truth] a broken item the page cannot repair is left out, noise too, lists capped", () => {
  const r = analyse(jsonld({
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "VideoObject",
        "@id": "#v",
        name: "Clip",
        thumbnailUrl: "https://shop.test/t.jpg",
      },
      { "@type": "SiteNavigationElement", name: "Menu", url: "https://shop.test/menu" },
      {
        "@type": "Organization",
        "@id": "https://shop.test/#org",
        name: "Shop",
        sameAs: Array.from({ length: 5000 }, (_, i) => `https://social.test/u${i}`),
      },
    ],
  }));
  const graph = r.generated.graph["@graph"];
  assert.ok(!graph.some((n) => n["@type"] === "VideoObject"), "no uploadDate on the page");
  assert.ok(r.generated.fillIn.some((f) => f.path === "VideoObject"));
  assert.ok(!graph.some((n) => n["@type"] === "SiteNavigationElement"));
  const org = graph.find((n) => n["@type"] === "Organization")!;
  assert.ok((org.sameAs as string[]).length <= 50);
  assert.deepEqual(validatesClean(r), []);
});

Deno.test("[schema truth] a blog post with question headings is not an FAQPage", () => {
  const html = `<html><head><title>Why I run | Bo's blog</title>
    <meta property="og:type" content="article"></head><body><article>
    <h1>Why I run</h1><h2>Why do we run?</h2><p>Because the legs want it, mostly.</p>
    <h2>What is the point?</h2><p>Is there one?</p></article></body></html>`;
  const r = analyse(html, "https://blog.test/why-i-run");
  assert.ok(!r.generated.graph["@graph"].some((n) => n["@type"] === "FAQPage"));
  const rhetorical = `<html><head><title>Questions</title></head><body>
    <h2>Who knows?</h2><p>Who can say?</p><h2>Why not?</h2><p>Why indeed?</p></body></html>`;
  const r2 = analyse(rhetorical, "https://blog.test/q");
  assert.ok(!r2.generated.graph["@graph"].some((n) => n["@type"] === "FAQPage"));
});

Deno.test("[schema truth] the site's name: a name spelling the domain beats the title's tail", () => {
  const html = jsonld({
    "@context": "https://schema.org",
    "@type": "Recipe",
    name: "Bean stew",
    image: "https://bluebean.test/stew.jpg",
    author: { "@type": "Person", name: "Blue Bean" },
  }, "<title>Bean stew | Easy Vegan Recipes</title>");
  const r = analyse(html, "https://bluebean.test/recipes/stew");
  assert.equal(r.facts.siteName, "Blue Bean");
  const og = analyse(
    `<html><head><title>Stew | Easy Recipes</title><meta property="og:site_name" content="Kitchen Co"></head></html>`,
    "https://bluebean.test/recipes/stew",
  );
  assert.equal(og.facts.siteName, "Kitchen Co");
});

Deno.test("[schema truth] the badge: no markup is not valid, eligibility is counted", () => {
  const record = (result: Result) => ({
    domain: "shop.test",
    url: URL_,
    status: "ok" as const,
    scannedAt: "2026-01-01T00:00:00.000Z",
    result,
  });
  const none = badgeFor(schemaService, record(analyse("<html><body><p>Hi</p></body></html>")));
  assert.equal(none.message, "no markup");
  assert.notEqual(
    none.colour,
    badgeFor(schemaService, record(analyseFixture("jsonld_recipe_valid"))).colour,
  );
  const recipe = badgeFor(schemaService, record(analyseFixture("jsonld_recipe_valid")));
  assert.match(recipe.message, /^1 eligible/);
  const bad = badgeFor(schemaService, record(analyseFixture("jsonld_recipe_invalid")));
  assert.match(bad.message, /error/);
});

Deno.test("[schema truth] JSON-LD: values the schema.org context types as IRIs resolve against the page", () => {
  const [item] = extractPage(
    jsonld({
      "@context": "https://schema.org",
      "@type": "Organization",
      url: "/about",
      sameAs: ["../social/shop", "https://social.test/shop"],
      identifier: "GB 12/3",
    }),
    URL_,
    "shop.test",
  ).detected.jsonLd;
  assert.equal(item.properties.url, "https://shop.test/about");
  assert.deepEqual(item.properties.sameAs, [
    "https://shop.test/social/shop",
    "https://social.test/shop",
  ]);
  assert.equal(item.properties.identifier, "GB 12/3", "Text or URL: a literal");
});

Deno.test("[schema truth] a broken breadcrumb is repaired from the visible trail", () => {
  const html = jsonld({
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", item: "https://shop.test/" },
      { "@type": "ListItem", position: "x", item: "https://shop.test/kettles/" },
      { "@type": "ListItem", position: 3, item: "https://shop.test/p/1" },
    ],
  }).replace(
    "<body>",
    `<body><nav aria-label="breadcrumb"><ol><li><a href="/">Home</a></li>
      <li><a href="/kettles/">Kettles</a></li><li><a href="/p/1">Blue kettle</a></li></ol></nav>`,
  );
  const r = analyse(html);
  assert.ok(errors(r).some((e) => e.includes("BreadcrumbList")), "the page's own trail is broken");
  const trail = r.generated.graph["@graph"].find((n) => n["@type"] === "BreadcrumbList")!;
  assert.deepEqual(
    (trail.itemListElement as JsonObject[]).map((e) => [e.position, e.name, e.item]),
    [
      [1, "Home", "https://shop.test/"],
      [2, "Kettles", "https://shop.test/kettles/"],
      [3, "Blue kettle", "https://shop.test/p/1"],
    ],
  );
  assert.deepEqual(validatesClean(r), []);
});

/** The shared real-world corpus, when it sits beside the project (it is never copied into it). */
const CORPUS_PAGES = new URL("../../shared/corpus/schema/material/pages/", import.meta.url);
const corpusPages = (() => {
  try {
    return [...Deno.readDirSync(CORPUS_PAGES)].map((e) => e.name)
      .filter((n) => n.endsWith(".html.gz")).sort();
  } catch {
    return [];
  }
})();

Deno.test({
  name:
    "[schema truth] the generated graph passes our validator on every page of the shared corpus",
  ignore: corpusPages.length === 0,
  fn: async () => {
    const failing: [string, string[]][] = [];
    for (const name of corpusPages) {
      const gz = await Deno.readFile(new URL(name, CORPUS_PAGES));
      const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
      const html = await new Response(stream).text();
      const errs = validatesClean(analyse(html, `https://corpus.test/${name.slice(0, -8)}`));
      if (errs.length) failing.push([name, errs]);
    }
    assert.deepEqual(failing, []);
  },
});
