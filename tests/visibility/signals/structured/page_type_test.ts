/** structured.page_type: a node says what the page is. */
import assert from "node:assert/strict";
import { pageType } from "../../../../lib/engines/visibility/signals/structured/page_type.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("structured.page_type - a WebPage node passes; none fails with the JSON-LD fix", () => {
  const html = page(
    `<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage","name":"Home"}</script>`,
  );
  const s = reported(pageType, pageCtx({ html }));
  assert.equal(s.status, "pass");
  assert.equal(s.detail, "The page is described as WebPage.");
  const none = pageCtx();
  assert.equal(reported(pageType, none).status, "fail");
  assert.equal(
    fixOf(pageType, none)!.what,
    "Describe the page itself (WebPage, Article, Product, ...)",
  );
});
