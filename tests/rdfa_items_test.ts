/**
 * RDFa as RDFa 1.1 specifies it, in the items validation and generation read: the document as a
 * subject (head metas, `about=""`, `typeof` on `<html>`, `property` on a body under `vocab`, a
 * hanging `rel` from the page), safe and blank-node CURIEs, processing step 5 (`href` with
 * `property` and `content` is the new subject), `rev`, datatypes and languages in `terms`; and
 * what stays out of the items (Open Graph on the document, HTML link types), so Google's rules
 * see only what Google reads. Small fixtures of our own; the W3C suite runs in
 * tests/rdfa_suite_test.ts.
 */
import assert from "node:assert/strict";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { extractRdfaTriples } from "../lib/engines/structured/rdfa/triples.ts";
import { validateItems } from "../lib/engines/structured/validate.ts";
import type { DetectedItem } from "../lib/engines/structured/record.ts";

const PAGE = "https://shop.test/p/trail";
const rdfa = (body: string, head = "", html = "") =>
  extractPage(
    `<!DOCTYPE html><html${html}><head><title>T</title>${head}</head><body>${body}</body></html>`,
    PAGE,
    "shop.test",
  ).detected.rdfa;
const XSD = "http://www.w3.org/2001/XMLSchema#";
const termAt = (item: DetectedItem, path: string) => item.terms?.find((t) => t.path === path);

Deno.test('[rdfa items] the document is a subject: typeof on <html>, metas in the head, about=""', () => {
  const [page] = rdfa(
    `<h1 property="name">Trail runner</h1>`,
    `<meta property="description" content="Light shoes">`,
    ` vocab="https://schema.org/" typeof="WebPage"`,
  );
  assert.equal(page.id, PAGE);
  assert.deepEqual(page.types, ["WebPage"]);
  assert.equal(page.properties.description, "Light shoes");
  assert.equal(page.properties.name, "Trail runner");

  const [about] = rdfa(`<div vocab="https://schema.org/" about="" typeof="ItemPage">
    <span property="name">Trail</span></div>`);
  assert.equal(about.id, PAGE, 'about="" names the page, not the empty string');
});

Deno.test("[rdfa items] property on a body under vocab, and a hanging rel from the page", () => {
  const [page] = rdfa(
    `<span property="headline">Spring sale</span>
     <div rel="author"><div typeof="Person"><span property="name">Ada</span></div></div>`,
    "",
    ` vocab="https://schema.org/"`,
  );
  assert.equal(page.id, PAGE);
  assert.equal(page.properties.headline, "Spring sale");
  assert.deepEqual(page.properties.author, { "@type": "Person", name: "Ada" });
});

Deno.test("[rdfa items] safe CURIEs, blank-node CURIEs and predefined prefixes are not URLs", () => {
  const items = rdfa(`<div vocab="https://schema.org/" prefix="ex: https://ex.test/ns/">
    <div about="[ex:shoe]" typeof="Product"><span property="name">Shoe</span>
      <div property="offers" resource="_:offer"></div></div>
    <div about="_:offer" typeof="Offer"><span property="price">89.90</span></div>
    <div about="[_:brand]" typeof="Brand"><span property="name">Acme</span></div>
    <span about="[unknown:x]" property="name">ignored subject</span>
  </div>`);
  const product = items.find((i) => i.types.includes("Product"))!;
  assert.equal(product.id, "https://ex.test/ns/shoe");
  // The offer is one blank node, described elsewhere and referred to once: embedded.
  assert.deepEqual(product.properties.offers, { "@type": "Offer", price: "89.90" });
  assert.ok(!items.some((i) => i.types.includes("Offer")), "the offer is not a second item");
  const brand = items.find((i) => i.types.includes("Brand"))!;
  assert.equal(brand.id, null, "a blank node has no IRI");
  assert.ok(!items.some((i) => i.id?.includes("[")), "no safe CURIE is taken for a relative URL");
  assert.ok(!items.some((i) => i.id?.includes("_:offer")));
});

Deno.test("[rdfa items] processing step 5: href with property and content is the new subject", () => {
  const items = rdfa(`<div vocab="http://www.w3.org/2004/02/skos/core#">
    <div about="https://ex.test/c/1" typeof="Concept"></div>
    <a href="https://ex.test/c/1" property="prefLabel" content="Running shoes">shoes</a>
  </div>`);
  assert.equal(items.length, 1);
  const [concept] = items;
  assert.equal(concept.id, "https://ex.test/c/1");
  assert.equal(
    concept.properties["http://www.w3.org/2004/02/skos/core#prefLabel"],
    "Running shoes",
    "the label is the concept's, not the enclosing subject's",
  );
});

Deno.test("[rdfa items] rev states the reverse link", () => {
  const triples = extractRdfaTriples(
    `<html><body vocab="https://schema.org/"><div about="https://ex.test/book" rev="author"
      resource="https://ex.test/ada"></div></body></html>`,
    PAGE,
  );
  assert.ok(
    triples.some((t) =>
      t.subject.value === "https://ex.test/ada" &&
      t.predicate.value === "https://schema.org/author" &&
      t.object.value === "https://ex.test/book"
    ),
  );
});

Deno.test("[rdfa items] values say literal or IRI, with the datatype and language the markup gives", () => {
  const [article] = rdfa(`<article vocab="https://schema.org/" typeof="Article" lang="fr">
    <h1 property="headline">Le soulier</h1>
    <time property="datePublished" datetime="2024-05-01">1 mai</time>
    <span property="wordCount" datatype="xsd:integer">420</span>
    <a property="url" href="/p/trail">lien</a>
    <span property="inLanguage" lang="">fr</span>
  </article>`);
  assert.deepEqual(termAt(article, "headline"), {
    path: "headline",
    kind: "literal",
    language: "fr",
  });
  assert.deepEqual(termAt(article, "datePublished"), {
    path: "datePublished",
    kind: "literal",
    datatype: `${XSD}date`,
  });
  assert.equal(termAt(article, "wordCount")?.datatype, `${XSD}integer`);
  assert.deepEqual(termAt(article, "url"), { path: "url", kind: "iri" });
  assert.equal(article.properties.url, PAGE);
  assert.deepEqual(termAt(article, "inLanguage"), { path: "inLanguage", kind: "literal" });
  // The item's values stay the strings every reader already takes.
  assert.equal(article.properties.datePublished, "2024-05-01");
  assert.equal(article.properties.wordCount, "420");
});

Deno.test("[rdfa items] Open Graph and Dublin Core on the document are triples, not items", () => {
  const head = `<meta property="og:title" content="Trail runner">
    <meta property="dc:creator" content="Ada">
    <link rel="license" href="https://creativecommons.org/licenses/by/4.0/">`;
  const html = `<!DOCTYPE html><html><head>${head}</head><body><p>Hi</p></body></html>`;
  const triples = extractRdfaTriples(html, PAGE);
  const said = (p: string, o: string) =>
    triples.some((t) =>
      t.subject.value === PAGE && t.predicate.value === p && t.object.value === o
    );
  assert.ok(said("http://ogp.me/ns#title", "Trail runner"));
  assert.ok(said("http://purl.org/dc/terms/creator", "Ada"));
  assert.ok(
    said(
      "http://www.w3.org/1999/xhtml/vocab#license",
      "https://creativecommons.org/licenses/by/4.0/",
    ),
  );
  const r = extractPage(html, PAGE, "shop.test");
  assert.deepEqual(r.detected.rdfa, [], "no schema.org data: no item");
  assert.deepEqual(validateItems(r.detected, PAGE).findings, [], "Google's rules never see it");
});

Deno.test("[rdfa items] HTML link types under a schema.org vocab are not properties", () => {
  const items = rdfa(
    `<a rel="nofollow noopener" href="/out">out</a><link rel="stylesheet" href="/s.css">`,
    "",
    ` vocab="https://schema.org/"`,
  );
  assert.deepEqual(items, []);
});

Deno.test("[rdfa items] a link without rel or property moves the subject, as RDFa specifies", () => {
  const [product] = rdfa(`<div vocab="https://schema.org/" typeof="Product">
    <span property="name">Shoe</span>
    <a href="/reviews"><span property="ratingValue">4</span></a></div>`);
  assert.equal(product.properties.name, "Shoe");
  assert.equal(product.properties.ratingValue, undefined, "the rating is the link target's");
});

Deno.test("[rdfa items] the library surface: RDFa as triples and typed item values from mod.ts", async () => {
  const mod = await import("../mod.ts");
  const html = `<html lang="en"><head><meta property="og:title" content="Trail"></head>
    <body vocab="https://schema.org/"><div typeof="Product"><span property="name">Shoe</span>
    <span property="weight" datatype="xsd:decimal">0.3</span></div></body></html>`;
  const triples = mod.extractRdfaTriples(html, PAGE);
  const title = triples.find((t) => t.predicate.value === "http://ogp.me/ns#title");
  assert.deepEqual(title?.object, {
    termType: "Literal",
    value: "Trail",
    language: "en",
    datatype: {
      termType: "NamedNode",
      value: "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString",
    },
  });
  const weight = triples.find((t) => t.predicate.value === "https://schema.org/weight");
  assert.equal(weight?.object.termType, "Literal");
  assert.equal(weight?.subject.termType, "BlankNode");
  const [product] = mod.extractPage(html, PAGE, "shop.test").detected.rdfa;
  assert.deepEqual(product.terms, [
    { path: "name", kind: "literal", language: "en" },
    { path: "weight", kind: "literal", datatype: `${XSD}decimal` },
  ]);
});
