/** structured.jsonld: JSON-LD present and parsing. */
import assert from "node:assert/strict";
import { jsonLd } from "../../../../lib/engines/visibility/signals/structured/jsonld.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const ORG = `<script type="application/ld+json">${
  JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Organization",
    name: "Shop Example",
  })
}</script>`;

Deno.test("structured.jsonld - valid JSON-LD passes", () => {
  const s = reported(jsonLd, pageCtx({ html: page(ORG) }));
  assert.equal(s.status, "pass");
  assert.equal(s.detail, "1 schema.org nodes found in JSON-LD.");
});

Deno.test("structured.jsonld - a broken block beside a good one warns; the fix repairs it", () => {
  const ctx = pageCtx({
    html: page(`${ORG}<script type="application/ld+json">{"@type": }</script>`),
  });
  const s = reported(jsonLd, ctx);
  assert.equal(s.status, "warn");
  assert.match(s.detail, /^1 of 2 JSON-LD blocks are not valid JSON/);
  assert.equal(fixOf(jsonLd, ctx)!.what, "Repair the invalid JSON-LD blocks");
});

Deno.test("structured.jsonld - none fails and the fix is a generated graph built from the page", () => {
  const ctx = pageCtx();
  const s = reported(jsonLd, ctx);
  assert.equal(s.status, "fail");
  // Nothing follows "0 typed nodes" (issue 42: never "0 typed nodes: " with nothing after it).
  assert.ok(s.evidence.includes("0 typed nodes"), s.evidence.join(" | "));
  assert.ok(!s.evidence.some((e) => /:\s*$/.test(e)), s.evidence.join(" | "));
  const fix = fixOf(jsonLd, ctx)!;
  assert.equal(fix.what, "Add a JSON-LD graph describing your organisation, site and page");
  assert.match(fix.how, /<script type="application\/ld\+json">/);
});
