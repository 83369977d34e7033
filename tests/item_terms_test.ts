/**
 * Extracted items say how each value reads as RDF (record.ts ValueTerm): an IRI or a literal,
 * with the datatype and language the markup gives, in all three formats; the values themselves
 * stay the strings every reader takes.
 */
import assert from "node:assert/strict";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { DetectedItemSchema } from "../lib/engines/structured/record.ts";

const PAGE = "https://shop.test/p/1";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const page = (body: string) =>
  extractPage(`<!DOCTYPE html><html lang="en"><body>${body}</body></html>`, PAGE, "shop.test")
    .detected;

Deno.test("[item terms] microdata: URLs are IRIs, text in the element's language, time typed", () => {
  const [item] = page(`<div itemscope itemtype="https://schema.org/Event" lang="de">
    <span itemprop="name">Lauf</span>
    <a itemprop="url" href="/e/1">Seite</a>
    <time itemprop="startDate" datetime="2025-06-01T10:00:00+02:00">1. Juni</time>
    <meta itemprop="eventStatus" content="https://schema.org/EventScheduled">
    <div itemprop="location" itemscope itemtype="https://schema.org/Place">
      <span itemprop="name" lang="fr">Parc</span></div>
  </div>`).microdata;
  assert.equal(item.properties.url, "https://shop.test/e/1");
  assert.deepEqual(item.terms, [
    { path: "eventStatus", kind: "literal", language: "de" },
    { path: "location.name", kind: "literal", language: "fr" },
    { path: "name", kind: "literal", language: "de" },
    { path: "startDate", kind: "literal", datatype: `${XSD}dateTime` },
    { path: "url", kind: "iri" },
  ]);
  assert.ok(DetectedItemSchema.safeParse(item).success, "the record schema takes it");
});

Deno.test("[item terms] JSON-LD: numbers and booleans typed, @value objects keep their type and language, URL properties are IRIs", () => {
  const block = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: [{ "@value": "Chaussure", "@language": "FR" }, "Shoe"],
    url: "/p/1",
    sku: 1234,
    isFamilyFriendly: true,
    releaseDate: { "@value": "2024-01-02", "@type": "xsd:date" },
    offers: { "@type": "Offer", price: 89.9 },
  };
  const [item] = page(`<script type="application/ld+json">${JSON.stringify(block)}</script>`)
    .jsonLd;
  assert.deepEqual(item.properties.name, ["Chaussure", "Shoe"], "values stay plain strings");
  assert.deepEqual(item.terms, [
    { path: "isFamilyFriendly", kind: "literal", datatype: `${XSD}boolean` },
    { path: "name[0]", kind: "literal", language: "fr" },
    { path: "name[1]", kind: "literal" },
    { path: "offers.price", kind: "literal", datatype: `${XSD}double` },
    { path: "releaseDate", kind: "literal", datatype: `${XSD}date` },
    { path: "sku", kind: "literal", datatype: `${XSD}integer` },
    { path: "url", kind: "iri" },
  ]);
});

Deno.test("[item terms] RDFa: the processor's own typing, nested nodes included", () => {
  const [item] = page(`<div vocab="https://schema.org/" typeof="Product" lang="en">
    <span property="name">Shoe</span>
    <div property="offers" typeof="Offer">
      <span property="price" datatype="xsd:decimal">89.90</span>
      <link property="availability" href="https://schema.org/InStock">
    </div></div>`).rdfa;
  assert.deepEqual(item.terms, [
    { path: "name", kind: "literal", language: "en" },
    { path: "offers.availability", kind: "iri" },
    { path: "offers.price", kind: "literal", datatype: `${XSD}decimal` },
  ]);
});
