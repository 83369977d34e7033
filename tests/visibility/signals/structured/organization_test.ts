/** structured.organization: who is behind the site, with name, url and logo. */
import assert from "node:assert/strict";
import { organization } from "../../../../lib/engines/visibility/signals/structured/organization.ts";
import { fixOf, page, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const ld = (data: unknown) =>
  `<script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", ...data as object })
  }</script>`;

Deno.test("structured.organization - name, url and logo pass", () => {
  const html = page(
    ld({
      "@type": "Organization",
      name: "Shop",
      url: "https://shop.example/",
      logo: "https://shop.example/l.png",
    }),
  );
  assert.equal(reported(organization, pageCtx({ html })).status, "pass");
});

Deno.test("structured.organization - missing logo warns with a point per missing property", () => {
  const ctx = pageCtx({
    html: page(ld({ "@type": "Organization", name: "Shop", url: "https://shop.example/" })),
  });
  const s = reported(organization, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 3);
  assert.equal(fixOf(organization, ctx)!.what, "Complete the Organization node (logo)");
});

Deno.test("structured.organization - none fails; the fix describes the organisation", () => {
  const ctx = pageCtx();
  assert.equal(reported(organization, ctx).status, "fail");
  assert.equal(fixOf(organization, ctx)!.what, "Describe your organisation in JSON-LD");
});
