/** structured.website: a WebSite node names the site. */
import assert from "node:assert/strict";
import { website } from "../../../../lib/engines/visibility/signals/structured/website.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const ld = (data: unknown) =>
  `<script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", ...data as object })
  }</script>`;

Deno.test("structured.website - with name and url passes, without url warns, none fails", () => {
  const full = page(ld({ "@type": "WebSite", name: "Shop", url: "https://shop.example/" }));
  assert.equal(reported(website, pageCtx({ html: full })).status, "pass");
  assert.equal(
    reported(website, pageCtx({ html: page(ld({ "@type": "WebSite", name: "Shop" })) })).status,
    "warn",
  );
  const none = pageCtx();
  assert.equal(reported(website, none).status, "fail");
  assert.equal(fixOf(website, none)!.what, "Add a WebSite node");
});
