/** structured.breadcrumb: a BreadcrumbList, low impact. */
import assert from "node:assert/strict";
import { breadcrumb } from "../../../../lib/engines/visibility/signals/structured/breadcrumb.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("structured.breadcrumb - present passes; absent warns (low) with a node to paste", () => {
  const html = page(
    `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]}</script>`,
  );
  assert.equal(reported(breadcrumb, pageCtx({ html })).status, "pass");
  const check = evaluate(breadcrumb, pageCtx())!;
  assert.equal(check.signal.status, "warn");
  assert.equal(check.impact, "low");
  assert.match(check.fix!.how, /"@id": "https:\/\/shop\.example\/#breadcrumb"/);
});
