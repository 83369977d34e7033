/** Findings on /validate (and the report) show the code they are about, highlighted. */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { SchemaResultSections } from "../../../lib/features/schema/views/schema_report.tsx";
import { validateCode } from "../../../lib/features/validate/validate_code.ts";

Deno.test("[finding excerpt] a syntax error shows its line, marked; no 'no structured data', no placeholder", () => {
  const r = validateCode({
    jsonld:
      '{\n  "@context": "https://schema.org",\n  "@type": "Product",\n  "name": "<b>Oak</b>",\n}',
  });
  const html = renderToString(<SchemaResultSections result={r} />);
  assert.match(html, /could not be read/);
  assert.match(html, /line 5, column 1/);
  assert.match(html, /<mark>/);
  assert.doesNotMatch(html, /has no structured data yet/);
  assert.doesNotMatch(html, /example\.com\/#webpage/);
  assert.match(html, /No markup is offered yet/);
  assert.ok(!html.includes("<b>Oak</b>"), "the code is escaped");
});

Deno.test("[finding excerpt] a rule finding shows the value it is about", () => {
  const r = validateCode({
    jsonld: JSON.stringify(
      {
        "@context": "https://schema.org",
        "@type": "Product",
        name: "Kettle",
        image: "https://example.com/k.jpg",
        offers: { "@type": "Offer", price: "89.OO", priceCurrency: "USD" },
      },
      null,
      2,
    ),
  });
  const html = renderToString(<SchemaResultSections result={r} />);
  assert.match(html, /<mark>&quot;price&quot;: &quot;89\.OO&quot;<\/mark>/);
});
