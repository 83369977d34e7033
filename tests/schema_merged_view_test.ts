/**
 * One view of the page (lib/engines/structured/merged_view.ts, lib/engines/schema/scan.ts `resultOf`): the server
 * HTML's items and the rendered DOM's are one list, each marked with its origin and its readers,
 * and the summary, eligibility, findings, "what changed" and the generated graph all agree with
 * it. The rendered DOM is given as HTML here (what the fixture pages' scripts leave in the DOM, as
 * tests/render_scan_test.ts sees them rendered in Chromium), so no browser is needed.
 */
import assert from "node:assert/strict";
import { resultOf } from "../lib/engines/schema/scan.ts";
import { extractPage } from "../lib/engines/structured/extract.ts";
import type { Result, SchemaScanRecord } from "../lib/engines/structured/record.ts";
import type { RenderAttempt, ViewContext } from "../lib/engines/structured/page_view.ts";
import { CRAWLER_RENDERING } from "../lib/engines/visibility/crawlers.ts";
import { diffRecords } from "../lib/engines/history/diff.ts";
import { INJECTED_PRODUCT, SERVER_EVENT, SERVER_PRODUCT } from "./fixtures/render_sites.ts";

const URL_ = "http://jsonld.test/p";

function html(blocks: unknown[], body = "<h1>House Espresso Blend</h1><p>Chocolatey.</p>"): string {
  return `<html><head><title>House Espresso Blend</title>${
    blocks.map((b) => `<script type="application/ld+json">${JSON.stringify(b)}</script>`).join("")
  }</head><body>${body}</body></html>`;
}

const PAGE: Result["page"] = {
  requestedUrl: URL_,
  finalUrl: URL_,
  status: 200,
  contentType: "text/html",
  redirects: 0,
  bytes: 1000,
  truncated: false,
  fetchMs: 1,
};

/** The result of a page whose server HTML is `server` and rendered DOM `rendered`. */
function view(server: string, rendered: string | null, context: ViewContext = {}): Result {
  const render: RenderAttempt | undefined = rendered === null ? context.render : {
    status: "rendered",
    reason: null,
    browser: "Chromium (test)",
    extraction: extractPage(rendered, URL_, "jsonld.test"),
  };
  return resultOf(extractPage(server, URL_, "jsonld.test"), PAGE, {
    readers: CRAWLER_RENDERING,
    canRender: true,
    ...context,
    render,
  });
}

const ORG = {
  "@context": "https://schema.org",
  "@type": "Organization",
  name: "JSON-LD Coffee",
  url: "http://jsonld.test/",
};
const PRODUCT = { ...SERVER_PRODUCT, "@id": `${URL_}#product` };

const graphTypes = (r: Result) => r.generated.graph["@graph"].map((n) => n["@type"]).flat();
const eligibleItems = (r: Result) =>
  new Set(
    (r.eligibility ?? []).filter((e) => e.status !== "not eligible").map((e) =>
      `${e.source}/${e.itemIndex}`
    ),
  );

function record(result: Result): SchemaScanRecord {
  return {
    domain: "jsonld.test",
    url: URL_,
    status: "ok",
    scannedAt: "2026-12-06T10:00:00.000Z",
    result,
  };
}

Deno.test("[merged view] a script injects a Product: one list, and every part of the result agrees", () => {
  const r = view(html([ORG]), html([ORG, INJECTED_PRODUCT]));
  assert.deepEqual(
    r.detected.jsonLd.map((i) => [i.index, i.types[0], i.origin, i.seenBy]),
    [
      [0, "Organization", "server", ["rendering", "non-rendering"]],
      [1, "Product", "added", ["rendering"]],
    ],
  );
  // Summary: what Google reads after rendering, and what each kind of reader sees.
  assert.equal(r.summary.items, 2);
  assert.ok(r.summary.types.includes("Product"));
  assert.deepEqual(r.view?.origins, { server: 1, added: 1, changed: 0, removed: 0 });
  assert.deepEqual(r.view?.seen, { rendering: 2, nonRendering: 1 });
  // Eligibility: the added Product is judged, and the summary counts it.
  const product = (r.eligibility ?? []).filter((e) => e.itemIndex === 1);
  assert.ok(product.some((e) => e.feature === "Product snippets" && e.status !== "not eligible"));
  assert.equal(r.summary.eligible, eligibleItems(r).size);
  assert.ok(r.summary.eligible! >= 1);
  // The rendered field lists the same item, and says who sees it.
  assert.deepEqual(r.rendered?.added.jsonLd.map((i) => i.index), [1]);
  assert.match(r.view!.note!, /^1 item \(Product\) is added by scripts/);
  assert.match(r.view!.note!, /GPTBot, ClaudeBot and PerplexityBot never see it/);
  // The graph to paste carries it into the server HTML.
  assert.ok(graphTypes(r).includes("Product"), JSON.stringify(graphTypes(r)));
  // What changed since a scan that did not render: the Product appeared.
  const before = view(html([ORG]), null);
  const diff = diffRecords(record(before), record(r));
  assert.ok(
    diff.summary.some((s) => /Items found: 1 before, 2 now/.test(s)),
    diff.summary.join(" "),
  );
  assert.ok(diff.summary.some((s) => /Eligible for rich results: \d before, \d now/.test(s)));
  assert.ok(diff.summary.some((s) => /Product/.test(s)), diff.summary.join(" "));
  assert.ok(!diff.summary.includes("Nothing else changed."));
});

Deno.test("[merged view] a script changes a server item: its rendered version is judged and pasted", () => {
  const changed = {
    ...PRODUCT,
    offers: { ...PRODUCT.offers, price: "12.00", availability: "https://schema.org/OutOfStock" },
  };
  const r = view(html([PRODUCT, SERVER_EVENT]), html([changed, SERVER_EVENT]));
  assert.deepEqual(
    r.detected.jsonLd.map((i) => [i.types[0], i.origin]),
    [["Product", "changed"], ["Event", "server"]],
  );
  const offers = r.detected.jsonLd[0].properties.offers as Record<string, unknown>;
  assert.equal(offers.price, "12.00", "the listed item is the rendered version");
  assert.deepEqual(r.view?.origins, { server: 1, added: 0, changed: 1, removed: 0 });
  assert.deepEqual(r.view?.seen, { rendering: 2, nonRendering: 2 });
  assert.equal(r.summary.items, 2);
  assert.match(r.view!.note!, /Scripts change 1 item: Google reads the changed version/);
  // The graph carries the price Google reads.
  const product = r.generated.graph["@graph"].find((n) => n["@type"] === "Product")!;
  assert.match(JSON.stringify(product), /"12\.00"/);
  assert.doesNotMatch(JSON.stringify(product), /"14\.50"/);
  assert.equal(r.rendered?.changed, 1);
});

Deno.test("[merged view] a script removes a server item: Google does not see it, nor its rich results", () => {
  const r = view(html([PRODUCT, SERVER_EVENT]), html([PRODUCT]));
  assert.deepEqual(
    r.detected.jsonLd.map((i) => [i.types[0], i.origin, i.seenBy]),
    [["Product", "server", ["rendering", "non-rendering"]], ["Event", "removed", [
      "non-rendering",
    ]]],
  );
  assert.equal(r.summary.items, 1);
  assert.ok(!r.summary.types.includes("Event"));
  assert.ok(!(r.eligibility ?? []).some((e) => e.type === "Event"), "no rich result for it");
  assert.deepEqual(r.view?.seen, { rendering: 1, nonRendering: 2 });
  assert.ok(!graphTypes(r).includes("Event"), "not in the graph Google would read");
  assert.match(r.view!.note!, /Scripts remove 1 item of the server HTML: Google does not see it/);
  assert.equal(r.rendered?.removed, 1);
  // The same page without the render: every item is the server HTML's, Event eligible.
  const plain = view(html([PRODUCT, SERVER_EVENT]), null);
  assert.ok((plain.eligibility ?? []).some((e) => e.type === "Event"));
  assert.ok(plain.detected.jsonLd.every((i) => i.origin === "server"));
  assert.equal(plain.view?.rendered, false);
});

Deno.test("[merged view] not rendered: a page that builds itself with scripts says so, and how to see more", () => {
  const shell = `<html><head><title>Shop</title><script src="/app.js"></script></head>` +
    `<body><div id="root"></div></body></html>`;
  const r = view(shell, null, { canRender: true });
  assert.equal(r.view?.serverHtml.kind, "shell");
  assert.match(r.view!.note!, /This page builds itself with scripts/);
  assert.match(r.view!.note!, /markup scripts add is not seen here/);
  assert.match(r.view!.note!, /Scan again with "Render the page in a browser" ticked/);
  const noBrowser = view(shell, null, { canRender: false });
  assert.match(noBrowser.view!.note!, /This server has no browser to render pages/);
  assert.match(noBrowser.view!.note!, /Rich Results Test/);
  // A static page with its text in the server HTML and no scripts: nothing to say.
  const plain = view(html([ORG], `<p>${"word ".repeat(120)}</p>`), null);
  assert.equal(plain.view?.note, null);
  // A render that was asked and failed says why, and concludes nothing.
  const failed: RenderAttempt = {
    status: "unavailable",
    reason: "no browser: /usr/bin/chromium is not installed",
    browser: null,
    extraction: null,
  };
  const f = view(shell, null, { render: failed, canRender: false });
  assert.match(f.view!.note!, /^Not rendered \(no browser: /);
  assert.equal(f.rendered?.status, "unavailable");
});

Deno.test("[merged view] items of one type without an @id are matched in document order", () => {
  // As many as a page's JSON-LD gives (300 items per format): the cursor keeps it linear.
  const many = Array.from({ length: 300 }, (_, i) => ({ "@type": "Thing", name: `thing ${i}` }));
  const graph = (list: unknown[]) => ({ "@context": "https://schema.org", "@graph": list });
  const changed = [...many.slice(0, 299), { ...many[299], name: "changed" }];
  const r = view(html([graph(many)]), html([graph(changed)]));
  assert.deepEqual(r.view?.origins, { server: 299, added: 0, changed: 1, removed: 0 });
  assert.equal(r.detected.jsonLd[299].properties.name, "changed");
});
