/** structured.same_as: the organisation's profiles, and a fix that never lists other people's. */
import assert from "node:assert/strict";
import { sameAs } from "../../../../lib/engines/visibility/signals/structured/same_as.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const org = (links: string[]) =>
  page(
    `<script type="application/ld+json">${
      JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Organization",
        name: "Shop Example",
        sameAs: links,
      })
    }</script>`,
  );

Deno.test("structured.same_as - two profiles pass, one warns", () => {
  const two = ["https://www.wikidata.org/wiki/Q1", "https://www.linkedin.com/company/shop-example"];
  assert.equal(reported(sameAs, pageCtx({ html: org(two) })).status, "pass");
  assert.equal(reported(sameAs, pageCtx({ html: org(two.slice(0, 1)) })).status, "warn");
});

Deno.test("structured.same_as - none fails; with no profile on the page the graph's sameAs are marked templates", () => {
  const ctx = pageCtx();
  assert.equal(reported(sameAs, ctx).status, "fail");
  const fix = fixOf(sameAs, ctx)!;
  // The profiles go in the Organization node of the home page's one graph.
  assert.equal(fix.cause?.key, "home:json-ld");
  assert.match(
    fix.how,
    /"sameAs": \[\n\s*"https:\/\/www\.wikidata\.org\/wiki\/FILL-IN-your-item-id",/,
  );
  assert.match(fix.how, /FILL-IN values only you can write[^\n]*in sameAs, the addresses/);
});
