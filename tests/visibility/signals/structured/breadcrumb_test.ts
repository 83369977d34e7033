/** structured.breadcrumb: a BreadcrumbList, low impact. */
import assert from "node:assert/strict";
import { breadcrumb } from "../../../../lib/engines/visibility/signals/structured/breadcrumb.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("structured.breadcrumb - present passes; absent warns (low) with a trail to paste", () => {
  const html = page(
    `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]}</script>`,
  );
  assert.equal(reported(breadcrumb, pageCtx({ html })).status, "pass");
  // A start page below the root (a language folder) has a trail of two entries to state.
  const inner = pageCtx({ homeUrl: "https://shop.example/en/" });
  const check = evaluate(breadcrumb, inner)!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.impact, "low");
  assert.match(check.fix!.how, /"@id": "https:\/\/shop\.example\/en\/#breadcrumb"/);
  assert.match(check.fix!.how, /^Paste into the <head> of https:\/\/shop\.example\/en\//);
});

Deno.test("structured.breadcrumb - a home page at the site's root is not asked for a trail", () => {
  // A trail needs two entries; the root is where every trail starts.
  assert.equal(reported(breadcrumb, pageCtx()).status, "na");
});
