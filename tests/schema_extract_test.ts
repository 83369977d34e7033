/**
 * Schema Markup Generator, extraction: JSON-LD flattened the way a JSON-LD processor does it,
 * microdata and RDFa items, the page facts the generator uses, and hostile pages that must stay
 * bounded.
 */
import assert from "node:assert/strict";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { fixtureHtml, fixtureUrl } from "./helpers/schema_fixtures.ts";

const extract = (name: string) => extractPage(fixtureHtml(name), fixtureUrl(name), "schema.test");

Deno.test("[schema extract] JSON-LD: @graph flattened, nested @id nodes lifted, same @id merged across blocks", () => {
  const x = extract("jsonld_graph_refs");
  const items = x.detected.jsonLd;
  assert.deepEqual(items.map((i) => i.types[0]), [
    "Article",
    "Person",
    "WebPage",
    "Organization",
    "Thing",
  ]);
  const [article, person, page, org] = items;
  assert.equal(
    article.id,
    "https://schema.test/jsonld_graph_refs#article",
    "relative @id resolved",
  );
  assert.equal(person.id, "https://schema.test/#/schema/person/ann");
  assert.equal(page.location, "JSON-LD block 1, nested");
  assert.deepEqual(article.properties.isPartOf, { "@id": page.id }, "lifted node is referenced");
  assert.deepEqual(page.properties, { name: "Graph | Northwind" });
  assert.deepEqual(org.properties, { name: "Northwind", url: "https://schema.test/" });
  const refs = Object.fromEntries(article.refs.map((r) => [r.path, r.target]));
  assert.deepEqual(refs.author, { source: "json-ld", index: 1 });
  assert.deepEqual(refs.publisher, { source: "json-ld", index: 3 });
  assert.equal(refs.about, null, "a dangling reference has no target");
  assert.deepEqual(
    x.syntaxFindings.map((f) => [f.severity, f.path, f.property]),
    [["error", "script[4]", null], ["error", "script[5]", "@context"]],
  );
});

Deno.test("[schema extract] microdata: entities decoded, itemref followed, URLs absolute, nested items", () => {
  const [product] = extract("microdata_product_valid").detected.microdata;
  assert.deepEqual(product.types, ["Product"]);
  assert.equal(product.properties.name, "Trail Runner 2 & Socks");
  assert.equal(product.properties.description, "A light trail running shoe.", "via itemref");
  assert.equal(product.properties.image, "https://schema.test/img/trail-runner.jpg");
  const { shippingDetails, hasMerchantReturnPolicy, itemCondition, ...offer } = product.properties
    .offers as Record<string, unknown>;
  assert.deepEqual(offer, {
    "@type": "Offer",
    priceCurrency: "EUR",
    price: "89.90",
    availability: "https://schema.org/InStock",
    priceValidUntil: "2030-12-31",
  });
  assert.equal(itemCondition, "https://schema.org/NewCondition");
  assert.deepEqual((shippingDetails as Record<string, unknown>).shippingDestination, {
    "@type": "DefinedRegion",
    addressCountry: "DE",
  });
  assert.equal((hasMerchantReturnPolicy as Record<string, unknown>).merchantReturnDays, "30");
  assert.deepEqual(product.properties.review, {
    "@type": "Review",
    author: { "@type": "Person", name: "Lee" },
    reviewRating: { "@type": "Rating", ratingValue: "5" },
    datePublished: "2024-03-01",
  });
});

Deno.test("[schema extract] microdata: time, breadcrumb positions and links", () => {
  const [crumbs] = extract("microdata_breadcrumb").detected.microdata;
  assert.deepEqual(crumbs.properties.itemListElement, [
    { "@type": "ListItem", item: "https://schema.test/shoes", name: "Shoes", position: "1" },
    { "@type": "ListItem", item: "https://schema.test/shoes/trail", name: "Trail", position: "2" },
  ]);
  const [event] = extract("microdata_event").detected.microdata;
  assert.equal(event.properties.startDate, "2030-07-21T19:00");
});

Deno.test("[schema extract] RDFa: vocab, prefixes, resource ids and nested typed nodes", () => {
  const [product] = extract("rdfa_product_valid").detected.rdfa;
  assert.deepEqual(product.types, ["Product"]);
  assert.equal(product.properties.image, "https://schema.test/img/trail-runner.jpg");
  const { shippingDetails, hasMerchantReturnPolicy, itemCondition, ...offer } = product.properties
    .offers as Record<string, unknown>;
  assert.deepEqual(offer, {
    "@type": "Offer",
    priceCurrency: "EUR",
    price: "89.90",
    availability: "https://schema.org/InStock",
    priceValidUntil: "2030-12-31",
  });
  assert.equal(itemCondition, "https://schema.org/NewCondition");
  assert.ok(shippingDetails && hasMerchantReturnPolicy);
  const [event] = extract("rdfa_event_invalid").detected.rdfa;
  assert.deepEqual(event.types, ["Event"], 's:Event through prefix="s: http://schema.org/"');
  assert.deepEqual(event.properties.location, { "@type": "Place", name: "Blue Hall" });
  const [org] = extract("rdfa_organization").detected.rdfa;
  assert.equal(org.id, "https://schema.test/#org");
  assert.equal(org.properties.url, "https://schema.test/");
});

Deno.test("[schema extract] page facts for an article page without markup", () => {
  const f = extract("plain_article").facts;
  assert.equal(f.siteName, "Bean Blog");
  assert.equal(f.canonical, "https://schema.test/plain_article");
  assert.equal(f.logo, "https://schema.test/img/bean-logo.png");
  assert.deepEqual(f.primaryImage, {
    url: "https://schema.test/img/light-roast.jpg",
    width: 1200,
    height: 630,
    alt: null,
  });
  assert.deepEqual(f.breadcrumbs, [
    { name: "Home", url: "https://schema.test/" },
    { name: "Blog", url: "https://schema.test/blog/" },
    { name: "Why light roasts taste fruity", url: null },
  ]);
  assert.deepEqual(f.article, {
    headline: "Why light roasts taste fruity",
    author: "Jane Doe",
    authorUrl: "https://schema.test/authors/jane",
    authors: [{ name: "Jane Doe", url: "https://schema.test/authors/jane" }],
    datePublished: "2024-05-01T09:00:00+00:00",
    dateModified: "2024-05-03T10:00:00+00:00",
  });
  assert.deepEqual(f.contact, { telephones: ["+15035550142"], emails: ["hello@schema.test"] });
  assert.deepEqual(f.socialProfiles, ["https://www.instagram.com/beanblog"]);
  assert.equal(f.product, null);
});

Deno.test("[schema extract] page facts: product price and currency, never a guessed currency", () => {
  assert.deepEqual(extract("plain_product").facts.product, {
    name: "Trail Runner 2",
    price: "89.90",
    currency: "EUR",
    availability: "https://schema.org/InStock",
    sku: null,
    brand: "Acme",
  });
  const noCurrency = extract("plain_product_no_currency").facts.product!;
  assert.equal(noCurrency.price, "89.90");
  assert.equal(noCurrency.currency, null, '"$" could be USD, CAD, AUD...');
});

Deno.test("[schema extract] page facts: questions and answers from <details> and question headings", () => {
  assert.deepEqual(extract("plain_faq").facts.faq, [
    { question: "How long does shipping take?", answer: "Three to five working days." },
    { question: "Do you ship abroad?", answer: "Only within the EU." },
    { question: "Can I return shoes?", answer: "Yes, within 30 days, unworn." },
  ]);
});

Deno.test("[schema extract] hostile pages stay bounded and never overflow the stack", async (t) => {
  const url = "https://schema.test/hostile";
  await t.step("100,000 nested divs around a microdata item", () => {
    const html = '<div itemscope itemtype="https://schema.org/Thing">' + "<div>".repeat(100_000) +
      '<span itemprop="name">deep</span>' + "</div>".repeat(100_000) + "</div>";
    const started = performance.now();
    const x = extractPage(html, url, "schema.test");
    assert.equal(x.detected.microdata[0].properties.name, "deep");
    assert.ok(performance.now() - started < 10_000);
  });
  await t.step("5,000 nested microdata items and RDFa nodes", () => {
    const micro = '<div itemprop="x" itemscope itemtype="https://schema.org/Thing">'.repeat(5000);
    const rdfa = '<div property="x" typeof="Thing">'.repeat(5000);
    const x = extractPage(
      `<div itemscope itemtype="https://schema.org/Thing">${micro}</div><div vocab="https://schema.org/" typeof="Thing">${rdfa}</div>`,
      url,
      "schema.test",
    );
    assert.equal(x.detected.microdata.length, 1);
    assert.equal(x.detected.rdfa.length, 1);
  });
  await t.step("JSON-LD nested 10,000 deep and 5,000 items", () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const many = JSON.stringify(
      Array.from(
        { length: 5000 },
        (_, i) => ({ "@type": "Thing", "@id": `#t${i}`, name: `t${i}` }),
      ),
    );
    const html =
      `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Thing","x":${deep}}</script>` +
      `<script type="application/ld+json">${many}</script>`;
    const x = extractPage(html, url, "schema.test");
    assert.ok(x.detected.jsonLd.length <= 300, `${x.detected.jsonLd.length} items kept`);
  });
});
