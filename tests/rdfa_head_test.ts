/**
 * Open Graph and Dublin Core in the head read as the RDFa they are: the page facts resolve a
 * meta's `property` through the prefixes and vocabulary in scope (a page may spell Open Graph
 * `o:title` under `prefix="o: http://ogp.me/ns#"`, or write the full IRI), and the visibility
 * checker's metadata signals take them. Google's rich-result rules still read only schema.org
 * data (tests/rdfa_items_test.ts).
 */
import assert from "node:assert/strict";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import { analyse, page, signal } from "./helpers/verdict_env.ts";

const facts = (html: string) => extractPageFacts(html, "https://news.example/a");

Deno.test("[rdfa head] Open Graph under any prefix, vocab or full IRI is og:*", () => {
  const f = facts(`<html prefix="o: http://ogp.me/ns# a: http://ogp.me/ns/article#"><head>
    <meta property="o:title" content="Rents rose">
    <meta property="http://ogp.me/ns#site_name" content="News Example">
    <meta property="a:published_time" content="2026-11-01">
    <meta property="o:description dc:description" content="Why rents rose">
    <div vocab="http://ogp.me/ns#"><meta property="image" content="https://news.example/i.png"></div>
    <meta property="image" content="not Open Graph: no vocab here any more">
    </head><body></body></html>`);
  assert.equal(f.openGraph["og:title"], "Rents rose");
  assert.equal(f.openGraph["og:site_name"], "News Example");
  assert.equal(f.openGraph["og:description"], "Why rents rose");
  assert.equal(f.openGraph["og:image"], "https://news.example/i.png");
  assert.equal(f.meta["article:published_time"], "2026-11-01");
  assert.equal(f.meta["dcterms.description"], undefined, "only the keys the checks read are kept");
});

Deno.test("[rdfa head] a prefix that names another vocabulary is not Open Graph; literal og: names still count", () => {
  const f = facts(`<html prefix="og: https://other.example/ns#"><head>
    <meta property="og:title" content="Crawlers read this name as written">
    <meta property="dc:creator" content="Ada Poe">
    </head><body></body></html>`);
  // Facebook's and other crawlers' readers take the literal name; RDFa alone would not.
  assert.equal(f.openGraph["og:title"], "Crawlers read this name as written");
  assert.equal(f.meta["dcterms.creator"], "Ada Poe");
});

Deno.test("[rdfa head] the visibility checker's metadata signals use the RDFa reading", () => {
  const og = analyse({
    html: page(`<meta property="o:title" content="Rents rose" prefix="o: http://ogp.me/ns#">
      <meta property="http://ogp.me/ns#description" content="Why rents rose">
      <meta property="http://ogp.me/ns#image" content="https://news.example/i.png">`),
  });
  assert.equal(signal(og, "technical.open_graph").status, "pass");

  const dc = analyse({
    html: page(`<meta property="dc:creator" content="Ada Poe">
      <meta property="dcterms:modified" content="2026-11-20">`),
  });
  const a = signal(dc, "trust.author_dates");
  assert.equal(a.status, "pass", a.detail);
  assert.ok(a.evidence.includes("author: Ada Poe"), a.evidence.join("; "));
});
