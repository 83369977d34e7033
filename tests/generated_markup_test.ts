/**
 * The markup the generator offers states only what the page supports and passes our own
 * validator: one Person per author with "By " stripped, one article node per page, no FAQPage
 * from teaser links, no node typed with a data type, no repeated values, a JSON syntax error
 * answered with its line and column (never "no structured data" or a placeholder graph), and, for
 * every fixture page and every page of the shared corpus (read in place, skipped when absent),
 * a generated graph that `/validate` finds no error and no avoidable warning in.
 */
import assert from "node:assert/strict";
import { validateCode } from "../lib/features/validate/validate_code.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import type { Result } from "../lib/engines/structured/record.ts";
import {
  asList,
  type JsonObject,
  type JsonValue,
  typesOf,
} from "../lib/engines/structured/terms.ts";
import { isDataType } from "../lib/engines/structured/vocabulary.ts";
import { analyseFixture, fixtureNames } from "./helpers/schema_fixtures.ts";

const nodesOf = (r: Result) => r.generated.graph["@graph"] as JsonObject[];

/** Findings `/validate` gives the generated graph that the generator could have avoided. */
function avoidable(r: Result, url: string): string[] {
  const graph = nodesOf(r);
  if (!graph.length) return [];
  const again = validateCode({ jsonld: r.generated.graph, url });
  return again.findings
    // A recommended property the page does not state cannot be filled in without inventing it.
    .filter((f) => f.severity === "error" || !/^Recommended: add/.test(f.message))
    .map((f) => `${f.severity} ${f.path}: ${f.message}`);
}

/** Repeated values in any list of the graph, and nodes typed with a data type. */
function untruths(r: Result): string[] {
  const out: string[] = [];
  const walk = (v: JsonValue, path: string) => {
    if (Array.isArray(v)) {
      const keys = v.map((x) => JSON.stringify(x));
      if (new Set(keys).size !== keys.length) out.push(`repeated values at ${path}`);
      v.forEach((x, i) => walk(x, `${path}[${i}]`));
    } else if (v && typeof v === "object") {
      for (const t of typesOf(v)) if (isDataType(t)) out.push(`${path} typed ${t}`);
      for (const [k, x] of Object.entries(v)) if (!k.startsWith("@")) walk(x, `${path}.${k}`);
    }
  };
  nodesOf(r).forEach((n, i) => walk(n, `@graph[${i}]`));
  return out;
}

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

Deno.test("[generated] several authors are several Persons; 'By' is not part of a name", () => {
  const two = nodesOf(analyseFixture("plain_article_authors"));
  const people = two.filter((n) => n["@type"] === "Person").map((n) => n.name).sort();
  assert.deepEqual(people, ["Ann Poe", "Bo Li"]);
  const article = two.find((n) => n["@type"] === "Article")!;
  assert.equal(asList(article.author).length, 2);
  const one = nodesOf(analyseFixture("plain_article_byline"));
  assert.deepEqual(one.filter((n) => n["@type"] === "Person").map((n) => n.name), [
    "Lucy Akins",
  ]);
  assert.ok(!JSON.stringify(one).includes("By Lucy"));
});

Deno.test("[generated] one article node per page: what the page declares is merged, never twinned", () => {
  const r = analyseFixture("jsonld_newsarticle_twin");
  const articles = nodesOf(r).filter((n) =>
    typesOf(n).some((t) => /Article$|^BlogPosting$/.test(t))
  );
  assert.equal(articles.length, 1, JSON.stringify(articles.map((a) => a["@type"])));
  const a = articles[0];
  assert.equal(a["@type"], "NewsArticle");
  assert.equal(a.datePublished, "2026-11-20T06:00:00Z", "one date, not a repeated list");
  assert.deepEqual(asList(a.author).map((p) => (p as JsonObject).name), ["Mia Sand"]);
  assert.deepEqual(untruths(r), []);
});

Deno.test("[generated] no FAQPage from teaser links to other pages", () => {
  const r = analyseFixture("plain_news_teasers");
  assert.ok(!nodesOf(r).some((n) => n["@type"] === "FAQPage" || n["@type"] === "Question"));
  assert.deepEqual(r.facts.faq, []);
  // A real FAQ (answers on the page) still is one.
  assert.ok(nodesOf(analyseFixture("plain_faq")).some((n) => n["@type"] === "FAQPage"));
});

Deno.test("[generated] no node typed with a data type, no repeated values", () => {
  const r = analyseFixture("jsonld_datatype_node");
  assert.deepEqual(untruths(r), []);
  assert.ok(!nodesOf(r).some((n) => typesOf(n).includes("URL")));
  const org = nodesOf(r).find((n) => n["@type"] === "Organization")!;
  assert.deepEqual(org.sameAs, "https://example.social/pine");
});

Deno.test("[generated] a JSON syntax error: 'could not be read' with line, column and the code", () => {
  const pasted =
    '{\n  "@context": "https://schema.org",\n  "@type": "Product",\n  "name": "Oak",\n}';
  const r = validateCode({ jsonld: pasted });
  const f = r.findings.find((x) => x.rule === "json-ld")!;
  assert.match(f.message, /could not be read/);
  assert.match(f.message, /line 5, column 1/);
  assert.equal(f.excerpt?.line, 5);
  assert.ok(f.excerpt!.lines.some((l) => l.includes('"name": "Oak",')));
  assert.equal(nodesOf(r).length, 0, "no placeholder graph");
  assert.match(r.generated.fillIn[0].why, /could not be read.*line 5/);
  assert.doesNotMatch(JSON.stringify(r), /example\.com\/#webpage/);
  // The same in a page's block: the line is the block's own.
  const page = analyseFixture("jsonld_syntax_error");
  const g = page.findings.find((x) => x.rule === "json-ld")!;
  assert.match(g.message, /JSON-LD block 1 could not be read at line 6, column \d+ \(/);
  // One position per error: not the JSON parser's own "position 75 (line 6 column 1)" too.
  assert.equal(g.message.match(/line \d+/g)?.length, 1, g.message);
});

Deno.test("[generated] findings carry the excerpt of the code they are about", () => {
  const r = analyseFixture("jsonld_offer_invalid");
  const price = r.findings.find((f) => f.path === "Product.offers.price")!;
  assert.ok(price.excerpt, "an excerpt");
  const line = price.excerpt!.lines[price.excerpt!.line - price.excerpt!.firstLine];
  const span = line.slice(
    price.excerpt!.column - 1,
    price.excerpt!.column - 1 + price.excerpt!.length,
  );
  assert.match(span, /"price": "89\.OO"/);
});

Deno.test("[generated] every fixture page's graph passes our own validator", () => {
  const bad: string[] = [];
  for (const name of fixtureNames()) {
    const r = analyseFixture(name);
    const url = `https://schema.test/${name}`;
    for (const f of [...avoidable(r, url), ...untruths(r)]) bad.push(`${name}: ${f}`);
  }
  assert.deepEqual(bad, []);
});

const CORPUS = new URL("../../shared/corpus/", import.meta.url);

async function corpusPages(): Promise<{ name: string; html: string; url: string }[]> {
  const out: { name: string; html: string; url: string }[] = [];
  const pages = new URL("schema/material/pages/", CORPUS);
  try {
    for (const e of [...Deno.readDirSync(pages)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!e.name.endsWith(".html.gz")) continue;
      const data = await Deno.readFile(new URL(e.name, pages));
      const html = new TextDecoder().decode(
        await new Response(new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip")))
          .arrayBuffer(),
      );
      const canonical = /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)/i.exec(html)?.[1];
      const url = canonical && /^https?:\/\//.test(canonical)
        ? canonical.replace(/&amp;/g, "&")
        : `https://example.org/${e.name.replace(/\.html\.gz$/, "")}`;
      out.push({ name: e.name, html, url });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const sites = new URL("visibility/material/sites/", CORPUS);
  try {
    for (const host of [...Deno.readDirSync(sites)].filter((e) => e.isDirectory)) {
      for (const f of Deno.readDirSync(new URL(`${host.name}/`, sites))) {
        if (!f.name.endsWith(".html")) continue;
        const html = await Deno.readTextFile(new URL(`${host.name}/${f.name}`, sites));
        const path = f.name === "index.html" ? "" : f.name.replace(/\.html$/, "");
        out.push({ name: `${host.name}/${f.name}`, html, url: `https://${host.name}/${path}` });
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

Deno.test("[generated] every shared-corpus page's graph passes our own validator", async (t) => {
  const pages = await corpusPages();
  if (!pages.length) {
    console.log("shared corpus not found: skipped");
    return;
  }
  for (const p of pages) {
    await t.step(p.name, () => {
      let url = p.url;
      try {
        url = new URL(p.url).href;
      } catch { /* keep */ }
      const r = analyse(p.html, url);
      assert.deepEqual([...avoidable(r, url), ...untruths(r)], []);
    });
  }
});
