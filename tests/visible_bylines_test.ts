/**
 * Visible bylines and dates (lib/engines/html/visible_bylines.ts, visible_dates.ts), on pages of
 * our own: the common forms in the corpus's languages are read, both services' author and date
 * checks and the generated graph use them, and nothing the page does not show is reported.
 */
import assert from "node:assert/strict";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import { datesIn, isoDatetime } from "../lib/engines/html/visible_dates.ts";
import { isPersonName } from "../lib/engines/html/visible_bylines.ts";
import { analysePage } from "../lib/engines/schema/scan.ts";
import { authorDates } from "../lib/engines/visibility/signals/trust/author_dates.ts";
import { pageCtx } from "./helpers/signal_ctx.ts";

const URL_ = "https://blog.test/2026/roasting";

function bylines(body: string, head = "") {
  return extractPageFacts(
    `<html><head><title>Roasting</title>${head}</head><body>${body}</body></html>`,
    URL_,
  ).bylines;
}

const ARTICLE = (byline: string) =>
  `<header><nav><a href="/">Home</a> <a href="/authors/">By author</a></nav></header>` +
  `<main><article><h1>How we roast</h1>${byline}<p>${
    "We roast coffee in small batches. ".repeat(30)
  }</p></article></main><footer>By Blog Test Ltd</footer>`;

Deno.test("[bylines] the common forms: By X, X · date, <time>, Published/Updated", async (t) => {
  await t.step("By X · Published 12 October 2026", () => {
    const b = bylines(ARTICLE("<p>By Anna Reid · Published 12 October 2026</p>"));
    assert.deepEqual(b.authors, [{ name: "Anna Reid", url: null }]);
    assert.equal(b.published, "2026-10-12");
    assert.equal(b.updated, null);
  });
  await t.step("a link to the author's page, then the date in a <time>", () => {
    const b = bylines(ARTICLE(
      '<div class="byline"><a href="/authors/anna-reid">Anna Reid</a></div>' +
        '<div class="dates"><time datetime="2026-10-12T08:00:00+01:00">12 Oct</time></div>',
    ));
    assert.deepEqual(b.authors, [{
      name: "Anna Reid",
      url: "https://blog.test/authors/anna-reid",
    }]);
    assert.equal(b.published, "2026-10-12T08:00:00+01:00");
  });
  await t.step("X · 12 October 2026, with no 'By'", () => {
    const b = bylines(ARTICLE("<p>Anna Reid · 12 October 2026</p>"));
    assert.deepEqual(b.authors.map((a) => a.name), ["Anna Reid"]);
    assert.equal(b.published, "2026-10-12");
  });
  await t.step("several people; the text after the names is not a name", () => {
    const b = bylines(ARTICLE(
      "<p>By <a href='/authors/ar'>Anna Reid</a>, Bo Lind and Ann-Marie de Vries, editors of the " +
        "roasting newsletter</p>",
    ));
    assert.deepEqual(b.authors.map((a) => a.name), ["Anna Reid", "Bo Lind", "Ann-Marie de Vries"]);
    assert.equal(b.authors[0].url, "https://blog.test/authors/ar");
  });
  await t.step("French: Par ..., publié le ..., mis à jour le ...", () => {
    const b = bylines(ARTICLE(
      "<p>Publié le 4 mai 2015 à 13h36 • Mis à jour le 05.05.2015 | Par Martine Dupont</p>",
    ));
    assert.deepEqual(b.authors.map((a) => a.name), ["Martine Dupont"]);
    assert.equal(b.published, "2015-05-04");
    assert.equal(b.updated, "2015-05-05");
  });
  await t.step("Spanish and Portuguese: Por A, B y C; publicado; atualizado", () => {
    const es = bylines(
      ARTICLE(
        "<p>Por Lucía Pérez, Juan Gómez y Ana Ruiz</p><p>Publicado el 12 de octubre de 2026</p>",
      ),
    );
    assert.deepEqual(es.authors.map((a) => a.name), ["Lucía Pérez", "Juan Gómez", "Ana Ruiz"]);
    assert.equal(es.published, "2026-10-12");
    const pt = bylines(ARTICLE("<p>Por João Silva</p><p>Atualizado em 21.dez.2018 às 12h55</p>"));
    assert.deepEqual(pt.authors.map((a) => a.name), ["João Silva"]);
    assert.equal(pt.updated, "2018-12-21");
  });
  await t.step("German: Von ..., veröffentlicht am 12. Oktober 2026", () => {
    const b = bylines(ARTICLE("<p>Von Jana Müller, veröffentlicht am 12. Oktober 2026</p>"));
    assert.deepEqual(b.authors.map((a) => a.name), ["Jana Müller"]);
    assert.equal(b.published, "2026-10-12");
  });
  await t.step("a <time> whose class says updated", () => {
    const b = bylines(ARTICLE(
      '<p>By Anna Reid</p><p><time class="published" datetime="2026-10-12">12 Oct</time> ' +
        '<time class="updated" datetime="2026-10-14 09:30:00">Updated 14 Oct</time></p>',
    ));
    assert.equal(b.published, "2026-10-12");
    assert.equal(b.updated, "2026-10-14T09:30:00");
  });
});

Deno.test("[bylines] nothing the page does not show: no person, no date invented", async (t) => {
  await t.step("navigation, footers and asides are not bylines", () => {
    const b = bylines(ARTICLE("<p>Roasting notes.</p>") + "<aside><p>By Anna Reid</p></aside>");
    assert.deepEqual(b.authors, []);
  });
  await t.step("sentences that start with 'By' are not bylines", () => {
    for (
      const text of [
        "By submitting your email, you agree to our terms.",
        "By the way, we roast on Mondays.",
        "By 2026 every bean will be traceable.",
        "By BBC News",
        "By Staff",
      ]
    ) assert.deepEqual(bylines(ARTICLE(`<p>${text}</p>`)).authors, [], text);
  });
  await t.step("a place or a photo credit inside a byline is not a name", () => {
    const b = bylines(ARTICLE(
      '<div class="c-signature"><strong class="c-signature__location">São Paulo</strong></div>',
    ));
    assert.deepEqual(b.authors, []);
  });
  await t.step("an unlabelled date far from any byline is not the article's", () => {
    const b = bylines(
      "<main><ul><li>Old story</li><li>24 July 2015</li></ul><p>" +
        "word ".repeat(50) + "</p></main>",
    );
    assert.equal(b.published, null);
  });
  await t.step("impossible dates are no dates", () => {
    assert.deepEqual(datesIn("Published 31 February 2026, 2026-13-01, 45.10.2026"), []);
    assert.equal(isoDatetime("2026-02-30"), null);
    assert.equal(isoDatetime("2026-10-12 25:00"), null);
    // Day or month first? Not guessed.
    assert.deepEqual(datesIn("Published 05/04/2015"), []);
  });
  await t.step("a name over 100 characters is not a name (Google's rule)", () => {
    const long = `${"Anna ".repeat(3)}${"Reidington".repeat(10)}`;
    assert.ok(long.length > 100);
    assert.equal(isPersonName(long), false);
    assert.equal(isPersonName("Anna Reid"), true);
    assert.equal(isPersonName("GILLIAN MOHNEY"), true);
    assert.equal(isPersonName("Michiel de Jong"), true);
    assert.equal(isPersonName("de Jong"), false);
  });
});

Deno.test("[bylines] both services' author and date checks, and the generated graph, use them", () => {
  const html = `<html lang="en"><head><title>How we roast | Blog Test</title></head><body>${
    ARTICLE("<p>By Anna Reid · Published 12 October 2026 · Updated 14 October 2026</p>")
  }</body></html>`;
  // The Schema Markup Generator: the article's facts and the graph to paste.
  const r = analysePage(html, {
    requestedUrl: URL_,
    finalUrl: URL_,
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 0,
  }, "blog.test");
  assert.equal(r.facts.article?.author, "Anna Reid");
  assert.equal(r.facts.article?.datePublished, "2026-10-12");
  assert.equal(r.facts.article?.dateModified, "2026-10-14");
  const article = r.generated.graph["@graph"].find((n) =>
    ["Article", "BlogPosting", "NewsArticle"].includes(String(n["@type"]))
  );
  assert.ok(article, JSON.stringify(r.generated.graph));
  assert.equal(article!.datePublished, "2026-10-12");
  const graph = JSON.stringify(r.generated.graph);
  assert.match(graph, /"name":"Anna Reid"/);
  // The visibility checker's trust.author_dates.
  const check = authorDates.check(pageCtx({ html, homeUrl: URL_ }))!;
  assert.equal(check.status, "pass", check.detail);
  assert.ok(check.evidence?.includes("author: Anna Reid"));
  // The same page without its byline: no author, no date, in either service.
  const bare = html.replace(/<p>By Anna Reid[^<]*<\/p>/, "");
  assert.equal(authorDates.check(pageCtx({ html: bare, homeUrl: URL_ }))!.status, "fail");
  const plain = analysePage(bare, { ...r.page, bytes: bare.length }, "blog.test");
  assert.equal(plain.facts.article?.author ?? null, null);
  assert.doesNotMatch(JSON.stringify(plain.generated.graph), /Anna Reid|2026-10-12/);
});
