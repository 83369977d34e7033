/**
 * Schema Markup Generator, generation: for every fixture page the generated graph is valid
 * JSON-LD (it parses, has the schema.org @context, unique absolute @ids, every reference
 * resolves), holds no value the page does not state, merges what the page already declares
 * instead of duplicating it, and the whole record validates against the zod schema.
 */
import assert from "node:assert/strict";
import { flattenJsonLd } from "../lib/engines/structured/page_graph.ts";
import { DomUtils, parseDocument } from "htmlparser2";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import { referencesOf } from "../lib/engines/structured/graph_tools.ts";
import { type Result, SchemaScanRecordSchema } from "../lib/engines/structured/record.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import type { JsonObject, JsonValue } from "../lib/engines/structured/terms.ts";
import type { ScanContext } from "../lib/engines/visibility/check.ts";
import { GRAPH_FILL_IN, jsonLdSnippet } from "../lib/engines/visibility/jsonld_fix.ts";
import { SAME_AS_FILL_IN } from "../lib/engines/visibility/same_as.ts";
import { readSteps } from "../lib/engines/visibility/fix_steps.ts";
import {
  analyseFixture,
  fixtureHtml,
  fixtureNames,
  fixtureUrl,
} from "./helpers/schema_fixtures.ts";

type Graph = { "@context": string; "@graph": JsonObject[] };

/** The generated graph's nodes. */
function nodesOf(r: Result): JsonObject[] {
  return r.generated.graph["@graph"] as JsonObject[];
}

/** Parses the script text the owner would paste. */
function parseScript(script: string): Graph {
  const m = script.match(/^<script type="application\/ld\+json">\n([\s\S]+)\n<\/script>$/);
  assert.ok(m, "a script element");
  return JSON.parse(m[1]);
}

/** Everything the page states: its text, its attribute values and its JSON-LD text. */
function pageStrings(html: string, pageUrl: string): { text: string; urls: Set<string> } {
  const doc = parseDocument(html);
  const parts: string[] = [];
  const urls = new Set<string>();
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    for (const v of Object.values(el.attribs)) {
      parts.push(v);
      try {
        urls.add(new URL(v.trim(), pageUrl).href);
      } catch { /* not a URL */ }
    }
    if (el.name === "script") parts.push(DomUtils.textContent(el));
  }
  parts.push(DomUtils.textContent(doc));
  return { text: parts.join(" ").replace(/\s+/g, " "), urls };
}

/**
 * Every leaf value of the graph that the page does not state, except what is derived from the
 * page's URL (@ids, the home and page URLs) or is a schema.org enumeration URL or a position.
 */
function inventedValues(graph: Graph, html: string, pageUrl: string): string[] {
  const { text, urls } = pageStrings(html, pageUrl);
  const origin = new URL(pageUrl).origin;
  const out: string[] = [];
  const stack: [JsonValue, string][] = graph["@graph"].map((n) => [n, ""]);
  while (stack.length) {
    const [v, key] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x) => stack.push([x, key]));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) if (k !== "@id" && k !== "@type") stack.push([x, k]);
    } else if (typeof v === "number") {
      if (key !== "position" && !text.includes(String(v))) out.push(`${key}=${v}`);
    } else if (typeof v === "string") {
      const ok = text.includes(v.replace(/\s+/g, " ")) || urls.has(v) ||
        v === `${origin}/` || v === pageUrl || /^https:\/\/schema\.org\/[A-Z]\w+$/.test(v);
      if (!ok) out.push(`${key}=${v}`);
    }
  }
  return out;
}

Deno.test("[schema generate] every fixture: valid, closed JSON-LD with no invented value", async (t) => {
  for (const name of fixtureNames()) {
    await t.step(name, () => {
      const r = analyseFixture(name);
      const graph = parseScript(r.generated.script);
      assert.deepEqual(graph, r.generated.graph, "the script carries the graph");
      assert.equal(graph["@context"], "https://schema.org");
      const ids = graph["@graph"].map((n) => n["@id"] as string);
      assert.equal(new Set(ids).size, ids.length, `unique @ids: ${ids}`);
      for (const id of ids) assert.match(id, /^https:\/\/schema\.test\//, "absolute @id");
      for (const n of graph["@graph"]) assert.ok(n["@type"], "every node has a type");
      const dangling = referencesOf(graph["@graph"]).filter((x) => !x.resolved);
      assert.deepEqual(dangling, [], "every reference resolves");
      assert.deepEqual(inventedValues(graph, fixtureHtml(name), fixtureUrl(name)), []);
      assert.deepEqual(r.generated.nodes.map((n) => n.id), ids, "nodes lists the graph");
      SchemaScanRecordSchema.parse({
        domain: "schema.test",
        url: fixtureUrl(name),
        status: "ok",
        scannedAt: new Date().toISOString(),
        result: r,
      });
    });
  }
});

Deno.test("[schema generate] the invented-value check catches a value the page does not state", () => {
  const r = analyseFixture("plain_product");
  const graph = structuredClone(r.generated.graph) as Graph;
  graph["@graph"][0].caption = "Best shoe ever";
  assert.deepEqual(
    inventedValues(graph, fixtureHtml("plain_product"), fixtureUrl("plain_product")),
    ["caption=Best shoe ever"],
  );
});

Deno.test("[schema generate] the Yoast-style graph for an article page without markup", () => {
  const r = analyseFixture("plain_article");
  const byType = Object.fromEntries(nodesOf(r).map((n) => [n["@type"], n]));
  const page = "https://schema.test/plain_article";
  assert.deepEqual(Object.keys(byType).sort(), [
    "Article",
    "BreadcrumbList",
    "ImageObject",
    "Organization",
    "Person",
    "WebPage",
    "WebSite",
  ]);
  assert.equal(byType.Organization["@id"], "https://schema.test/#organization");
  assert.deepEqual(byType.Organization.logo, { "@id": "https://schema.test/#logo" });
  assert.deepEqual(byType.WebSite.publisher, { "@id": "https://schema.test/#organization" });
  assert.equal(byType.WebPage["@id"], `${page}#webpage`);
  assert.deepEqual(byType.WebPage.breadcrumb, { "@id": `${page}#breadcrumb` });
  assert.deepEqual(byType.WebPage.primaryImageOfPage, { "@id": `${page}#primaryimage` });
  assert.equal(byType.Article["@id"], `${page}#article`);
  assert.equal(byType.Article.headline, "Why light roasts taste fruity");
  assert.deepEqual(byType.Article.mainEntityOfPage, { "@id": `${page}#webpage` });
  assert.equal(byType.Person.name, "Jane Doe");
  assert.equal((byType.BreadcrumbList.itemListElement as JsonObject[]).length, 3);
  assert.deepEqual(r.generated.fillIn, [], "nothing Google asks for is missing");
});

Deno.test("[schema generate] a product page: Product with its Offer, or left out without a currency", () => {
  const r = analyseFixture("plain_product");
  const product = nodesOf(r).find((n) => n["@type"] === "Product")!;
  assert.deepEqual(product.offers, {
    "@type": "Offer",
    price: "89.90",
    priceCurrency: "EUR",
    availability: "https://schema.org/InStock",
    url: "https://schema.test/plain_product",
  });
  const missing = analyseFixture("plain_product_no_currency");
  assert.ok(!nodesOf(missing).some((n) => n["@type"] === "Product"));
  const fill = missing.generated.fillIn.find((f) => f.path === "Product.offers")!;
  assert.match(fill.why, /price and currency/);
});

Deno.test("[schema generate] what the page declares is merged, not duplicated", async (t) => {
  await t.step("existing Organization and WebSite keep their @ids", () => {
    const g = analyseFixture("jsonld_organization_valid").generated;
    const orgs = (g.graph["@graph"] as JsonObject[]).filter((n) => n["@type"] === "Organization");
    assert.equal(orgs.length, 1);
    assert.equal(orgs[0]["@id"], "https://schema.test/#org");
    const site = (g.graph["@graph"] as JsonObject[]).find((n) => n["@type"] === "WebSite")!;
    assert.equal(site["@id"], "https://schema.test/#site");
    assert.deepEqual(site.publisher, { "@id": "https://schema.test/#org" });
    assert.deepEqual(g.nodes.filter((n) => n.origin === "merged").map((n) => n.type).sort(), [
      "Organization",
      "WebSite",
    ]);
  });
  await t.step("an embedded publisher becomes the Organization node, referenced", () => {
    const g = analyseFixture("jsonld_article_valid").generated;
    const post = (g.graph["@graph"] as JsonObject[]).find((n) => n["@type"] === "BlogPosting")!;
    const orgs = (g.graph["@graph"] as JsonObject[]).filter((n) => n["@type"] === "Organization");
    assert.equal(orgs.length, 1);
    assert.equal(orgs[0].name, "Bean Blog");
    assert.deepEqual(post.publisher, { "@id": orgs[0]["@id"] });
    assert.equal(
      (g.graph["@graph"] as JsonObject[]).filter((n) => n["@type"] === "BlogPosting").length,
      1,
    );
  });
  await t.step("a LocalBusiness is the site entity, with its address kept", () => {
    const g = analyseFixture("jsonld_localbusiness_valid").generated;
    const biz = (g.graph["@graph"] as JsonObject[]).find((n) => n["@type"] === "Restaurant")!;
    assert.equal(biz["@id"], "https://schema.test/#restaurant");
    assert.equal((biz.address as JsonObject).postalCode, "10019");
    assert.ok(!(g.graph["@graph"] as JsonObject[]).some((n) => n["@type"] === "Organization"));
  });
  await t.step("microdata items join the graph as JSON-LD", () => {
    const g = analyseFixture("microdata_product_valid").generated;
    const product = (g.graph["@graph"] as JsonObject[]).find((n) => n["@type"] === "Product")!;
    assert.equal(product.name, "Trail Runner 2 & Socks");
    assert.equal((product.offers as JsonObject).price, "89.90");
  });
  await t.step("unknown properties and types are not carried over", () => {
    const g = analyseFixture("jsonld_article_invalid").generated;
    assert.ok(!g.script.includes('"autor"'));
    const bad = analyseFixture("jsonld_product_invalid").generated;
    assert.ok(!bad.script.includes("Prodcut"));
  });
  await t.step("a dangling reference is dropped and listed to fill in", () => {
    const g = analyseFixture("jsonld_graph_refs").generated;
    assert.ok(!g.script.includes("nothing-here"));
    assert.ok(g.fillIn.some((f) => f.path === "Article.about"));
  });
});

Deno.test("[schema generate] FAQ content becomes an FAQPage with its questions", () => {
  const g = nodesOf(analyseFixture("plain_faq"));
  const page = g.find((n) => n["@type"] === "FAQPage")!;
  assert.equal((page.mainEntity as JsonObject[]).length, 3);
  const q = g.find((n) => n["@type"] === "Question")!;
  assert.deepEqual(q.acceptedAnswer, { "@type": "Answer", text: "Three to five working days." });
});

Deno.test("[schema generate] a page that states nothing gets only what its URL gives", () => {
  const r = analyseFixture("plain_nothing");
  assert.deepEqual(nodesOf(r).map((n) => n["@type"]), ["WebPage"]);
  assert.deepEqual(r.generated.fillIn.map((f) => f.path).slice(0, 2), [
    "Organization.name",
    "WebSite.name",
  ]);
});

Deno.test("[schema generate] a value cannot close the script element", () => {
  const html =
    `<html><head><title>A </script><script>alert(1)</script> | Evil Co</title></head><body></body></html>`;
  const r = analysePage(html, {
    requestedUrl: "https://evil.test/",
    finalUrl: "https://evil.test/",
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  }, "evil.test");
  assert.equal(r.generated.script.indexOf("</script>"), r.generated.script.length - 9);
  assert.ok(r.generated.script.includes("\\u003c/script>"));
  assert.equal(
    parseScript(r.generated.script)["@graph"].length,
    nodesOf(r).length,
  );
});

Deno.test("[schema generate] the visibility checker's JSON-LD fix comes from the generator", () => {
  const html = fixtureHtml("plain_article");
  const pageUrl = fixtureUrl("plain_article");
  const facts = extractPageFacts(html, pageUrl);
  const ctx = {
    facts,
    nodes: flattenJsonLd(facts.jsonLd),
    siteName: null,
    pageUrl,
    snapshot: { target: { domain: "schema.test" } },
  } as unknown as ScanContext;
  const how = jsonLdSnippet(ctx);
  // The graph describes the page it was built from (its WebPage's @id is that page), so it is
  // pasted into that page: the scanned page, which in a scan is the home page.
  assert.match(how, /^Paste into the <head> of https:\/\/schema\.test\/plain_article;/);
  const [step] = readSteps(how);
  assert.equal(step.kind, "head");
  assert.deepEqual(step.urls, [pageUrl]);
  const m = how.match(/<script type="application\/ld\+json">\n([\s\S]+?)\n<\/script>/)!;
  const graph = JSON.parse(m[1]) as Graph;
  const types = graph["@graph"].map((n) => n["@type"]);
  for (const t of ["Organization", "WebSite", "WebPage", "Article", "ImageObject"]) {
    assert.ok(types.includes(t), `${t} in ${types}`);
  }
  assert.deepEqual(referencesOf(graph["@graph"]).filter((x) => !x.resolved), []);
  // Nothing invented: a value the page does not state is one of the marked FILL-IN placeholders,
  // and the sentence before the graph names each one the owner replaces before publishing.
  const placeholders = new Set<string>([...Object.values(GRAPH_FILL_IN), ...SAME_AS_FILL_IN]);
  const invented = inventedValues(graph, html, pageUrl);
  assert.deepEqual(invented.filter((x) => !placeholders.has(x.slice(x.indexOf("=") + 1))), []);
  assert.deepEqual(invented.map((x) => x.slice(0, x.indexOf("="))).sort(), ["logo", "sameAs"]);
  assert.match(how, /except the FILL-IN values only you can write, which you replace before you/);
  assert.match(
    how,
    /: your logo's address; in sameAs, the addresses of your own official profiles/,
  );
  const nothing = extractPageFacts(fixtureHtml("plain_nothing"), fixtureUrl("plain_nothing"));
  const none = jsonLdSnippet({
    facts: nothing,
    nodes: flattenJsonLd(nothing.jsonLd),
    siteName: null,
    pageUrl: fixtureUrl("plain_nothing"),
    snapshot: { target: { domain: "schema.test" } },
  } as unknown as ScanContext);
  // No name on the page: the Organization is a separate, marked fill-in, not a claim.
  assert.match(none, /which you replace before you publish: the name of who is behind the site;/);
  assert.match(none, /"name": "FILL-IN: your organisation's name"/);
});
