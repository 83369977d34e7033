/**
 * Schema Markup Generator vs `npm:@adobe/structured-data-validator` (a peer, used only here):
 * the same fixture pages go through Adobe's pipeline (its companion extractor
 * `npm:@marbec/web-auto-extractor`, then its Validator, given the same schema.org release we
 * use, converted from vocabulary.json, since it would otherwise fetch schema.org at run time).
 * The first test pins where the two agree; the second pins where they differ and why, so the
 * comparison in docs/schema.md stays true ("Compared with Adobe's validator").
 */
import assert from "node:assert/strict";
import Validator from "@adobe/structured-data-validator";
import WebAutoExtractor from "@marbec/web-auto-extractor";
import vocab from "../lib/engines/structured/vocabulary.json" with { type: "json" };
import { analyseFixture, fixtureHtml, HOME_FIXTURES } from "./helpers/schema_fixtures.ts";

interface AdobeIssue {
  severity: "ERROR" | "WARNING";
  rootType: string;
  dataFormat: string;
  issueMessage: string;
  fieldNames?: string[];
  path?: { type?: string; property?: string }[];
}

/** schema.org in the shape Adobe reads (schemaorg-all-https.jsonld), from our vocabulary. */
function schemaOrgJson(): unknown {
  const graph: unknown[] = [];
  for (const [t, [parents]] of Object.entries(vocab.types)) {
    graph.push({
      "@id": `schema:${t}`,
      "@type": "rdfs:Class",
      "rdfs:subClassOf": (parents as string[]).map((p) => ({ "@id": `schema:${p}` })),
    });
  }
  for (const [p, [domains]] of Object.entries(vocab.properties)) {
    graph.push({
      "@id": `schema:${p}`,
      "@type": "rdf:Property",
      "schema:domainIncludes": (domains as string[]).map((d) => ({ "@id": `schema:${d}` })),
    });
  }
  return { "@graph": graph };
}

const validator = new Validator(schemaOrgJson());

/** Adobe's issues for a fixture, as "SEVERITY Root.prop.field" keys plus the raw issues. */
async function adobe(name: string): Promise<{ keys: string[]; issues: AdobeIssue[] }> {
  const extracted = new WebAutoExtractor({ addLocation: true, embedSource: ["rdfa", "microdata"] })
    .parse(fixtureHtml(name));
  const issues = await validator.validate(extracted) as AdobeIssue[];
  const keys = issues.map((i) => {
    const path = (i.path ?? []).map((p, n) => n === 0 ? p.type : p.property).join(".");
    return `${i.severity} ${path}${path ? "." : ""}${(i.fieldNames ?? []).join("|")}`;
  });
  return { keys, issues };
}

/** Our findings for a fixture, as "severity path" keys. */
function ours(name: string): string[] {
  return analyseFixture(name, HOME_FIXTURES[name]).findings.map((f) => `${f.severity} ${f.path}`);
}

/** [fixture, our finding, Adobe's issue] pairs that must both be present. */
const AGREE: [string, string, string][] = [
  ["jsonld_product_invalid", "error Product.name", "ERROR Product.name"],
  [
    "jsonld_product_invalid",
    "error Product.offers.price",
    "ERROR Product.offers.price|priceSpecification.price",
  ],
  [
    "jsonld_product_invalid",
    "error Product.aggregateRating.ratingCount",
    "ERROR Product.aggregateRating.ratingCount|reviewCount",
  ],
  ["jsonld_product_invalid", "error Prodcut", "ERROR Prodcut.@type"],
  ["jsonld_aggregateoffer", "error Product.offers.lowPrice", "ERROR Product.offers.lowPrice"],
  [
    "jsonld_aggregateoffer",
    "error Product.offers.priceCurrency",
    "ERROR Product.offers.priceCurrency",
  ],
  [
    "jsonld_breadcrumb_invalid",
    "error BreadcrumbList.itemListElement[0].position",
    "ERROR BreadcrumbList.itemListElement.position",
  ],
  [
    "jsonld_breadcrumb_invalid",
    "error BreadcrumbList.itemListElement[2].name",
    "ERROR BreadcrumbList.itemListElement.name|item.name",
  ],
  ["jsonld_review_standalone", "error Review.itemReviewed", "ERROR Review.itemReviewed"],
  ["jsonld_review_standalone", "error Review.author.name", "ERROR Review.author.name"],
  ["jsonld_recipe_invalid", "error Recipe.image", "ERROR Recipe.image"],
  ["jsonld_recipe_invalid", "warning Recipe.totalTime", "WARNING Recipe.totalTime"],
  ["jsonld_video_invalid", "error VideoObject.thumbnailUrl", "ERROR VideoObject.thumbnailUrl"],
  ["jsonld_video_invalid", "error VideoObject.uploadDate", "ERROR VideoObject.uploadDate"],
  ["jsonld_video_invalid", "warning VideoObject.duration", "WARNING VideoObject.duration"],
  ["jsonld_article_invalid", "warning NewsArticle.autor", "WARNING NewsArticle.autor"],
  ["microdata_product_invalid", "error Product.name", "ERROR Product.name"],
  [
    "microdata_product_invalid",
    "error Product.offers.price",
    "ERROR Product.offers.price|priceSpecification.price",
  ],
  ["microdata_product_invalid", "warning Product.colour", "WARNING Product.colour"],
  ["rdfa_product_invalid", "error Product.name", "ERROR Product.name"],
  [
    "rdfa_product_invalid",
    "error Product.offers.price",
    "ERROR Product.offers.price|priceSpecification.price",
  ],
];

/** Fixtures on which neither reports an error. */
const BOTH_CLEAN = [
  "jsonld_product_valid",
  "microdata_product_valid",
  "rdfa_product_valid",
  "jsonld_recipe_valid",
  "jsonld_video_valid",
  "jsonld_breadcrumb_valid",
  "microdata_breadcrumb",
  "rdfa_breadcrumb",
  "jsonld_article_valid",
];

Deno.test("[schema adobe] where Adobe's validator and ours agree", async (t) => {
  for (const [name, our, theirs] of AGREE) {
    await t.step(`${name}: ${our}`, async () => {
      assert.ok(ours(name).includes(our), `ours: ${ours(name).join(", ")}`);
      const { keys } = await adobe(name);
      assert.ok(keys.includes(theirs), `Adobe: ${keys.join(", ")}`);
    });
  }
  await t.step("JSON-LD that does not parse is an error in both", async () => {
    assert.ok(ours("jsonld_graph_refs").includes("error script[4]"));
    const { issues } = await adobe("jsonld_graph_refs");
    assert.ok(
      issues.some((i) => i.severity === "ERROR" && /Could not parse JSON-LD/.test(i.issueMessage)),
    );
  });
  for (const name of BOTH_CLEAN) {
    await t.step(`${name}: no error in either`, async () => {
      assert.ok(!ours(name).some((k) => k.startsWith("error")));
      const { keys } = await adobe(name);
      assert.ok(!keys.some((k) => k.startsWith("ERROR")), keys.join(", "));
    });
  }
});

Deno.test("[schema adobe] where they differ, and why", async (t) => {
  await t.step("Adobe has no rules for LocalBusiness, Event, Article or WebSite", async () => {
    for (
      const name of [
        "jsonld_localbusiness_invalid",
        "jsonld_event_invalid",
        "microdata_event",
        "jsonld_website_searchaction",
      ]
    ) {
      assert.ok(ours(name).some((k) => k.startsWith("error")), name);
      assert.deepEqual((await adobe(name)).keys, [], name);
    }
  });
  await t.step(
    "Adobe applies merchant-listing rules to every Product (image required)",
    async () => {
      assert.ok((await adobe("jsonld_product_invalid")).keys.includes("ERROR Product.image"));
      assert.ok(ours("jsonld_product_invalid").includes("warning Product.image"));
      const merchant = (await adobe("jsonld_product_valid")).keys.filter((k) =>
        k.startsWith("WARNING")
      );
      assert.ok(merchant.length >= 10, "gtin, mpn, color, size... on a complete product snippet");
      assert.deepEqual(ours("jsonld_product_valid"), []);
    },
  );
  await t.step("RDFa prefixes: Adobe's extractor does not expand s:Event", async () => {
    const { keys } = await adobe("rdfa_event_invalid");
    assert.ok(keys.includes("ERROR s:Event.@type"));
    assert.ok(ours("rdfa_event_invalid").includes("error Event.startDate"));
  });
  await t.step("nodes sharing an @id: merged by us, validated apart by Adobe", async () => {
    assert.ok((await adobe("jsonld_graph_refs")).keys.includes("ERROR Organization.name"));
    assert.ok(!ours("jsonld_graph_refs").some((k) => k.includes("Organization.name")));
  });
  await t.step("a block without @context: an error for us, nothing for Adobe", async () => {
    assert.ok(ours("jsonld_graph_refs").includes("error script[5]"));
    assert.ok(
      !(await adobe("jsonld_graph_refs")).issues.some((i) => /context/i.test(i.issueMessage)),
    );
  });
  await t.step("a ratingValue of 7 on the default 1-5 scale: only we catch it", async () => {
    assert.ok(ours("jsonld_product_invalid").includes("error Product.aggregateRating.ratingValue"));
    const { keys } = await adobe("jsonld_product_invalid");
    assert.ok(!keys.some((k) => k.endsWith("aggregateRating.ratingValue")));
  });
  await t.step("bestRating/worstRating: Adobe warns on every rating, we do not", async () => {
    assert.ok(
      (await adobe("jsonld_product_valid")).keys.includes(
        "WARNING Product.aggregateRating.bestRating",
      ),
    );
  });
  await t.step("enumeration values: only we check them", async () => {
    assert.ok(ours("jsonld_product_invalid").includes("warning Product.offers.availability"));
    assert.ok(
      !(await adobe("jsonld_product_invalid")).keys.some((k) => k.includes("availability")),
    );
  });
  await t.step(
    "a breadcrumb entry without URL: error for us (Google), warning for Adobe",
    async () => {
      assert.ok(
        ours("jsonld_breadcrumb_invalid").includes("error BreadcrumbList.itemListElement[1].item"),
      );
      assert.ok(
        (await adobe("jsonld_breadcrumb_invalid")).keys.includes(
          "WARNING BreadcrumbList.itemListElement.item",
        ),
      );
    },
  );
  await t.step("retired rich results: noted by us, validated as usual by Adobe", async () => {
    assert.equal(analyseFixture("jsonld_faq_howto").deprecated.length, 2);
    assert.ok((await adobe("jsonld_faq_howto")).keys.some((k) => k.startsWith("WARNING HowTo")));
  });
  await t.step("HTML entities: Adobe's extractor leaves them encoded", () => {
    const wae = new WebAutoExtractor({}).parse(fixtureHtml("microdata_product_valid"));
    assert.equal(wae.microdata.Product[0].name, "Trail Runner 2 &amp; Socks");
    const ourName = analyseFixture("microdata_product_valid").detected.microdata[0].properties.name;
    assert.equal(ourName, "Trail Runner 2 & Socks");
  });
});
