/**
 * [href] A URL from a stored record, a scanned page or a vendor's answer becomes an `href` (or
 * `src`, or a form's `action`) only when it is http(s): one helper (`safeHttpUrl`,
 * lib/kit/ui/format.ts) in every view that links to one. Here the views that put record data into
 * links are rendered from hostile records, and every link attribute of the HTML is walked.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { ProductsSection } from "../../lib/features/visibility/views/report_products.tsx";
import { safeHttpUrl } from "../../lib/kit/ui/format.ts";
import { visibilityRecord } from "../helpers/records.ts";

/** The schemes a link must never carry, however they are spelled. */
const HOSTILE = [
  "javascript:alert(1)",
  " JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "java\tscript:alert(1)",
  "//evil.example/x",
  "https://user:pass@evil.example/",
];

/** Every href, src and action value of a rendered page, as a browser would read the attribute. */
function linkTargets(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/\s(?:href|src|action)="([^"]*)"/gi)) {
    out.push(m[1].replaceAll("&amp;", "&").replaceAll("&quot;", '"'));
  }
  return out;
}

function assertOnlyHttp(html: string, where: string): void {
  for (const target of linkTargets(html)) {
    const scheme = /^\s*([a-z][a-z0-9+.\-\t\n]*):/i.exec(target)?.[1]?.replace(/\s/g, "");
    assert(
      !scheme || scheme === "http" || scheme === "https",
      `${where}: a link to ${JSON.stringify(target)}`,
    );
  }
}

Deno.test("[href] safeHttpUrl lets http(s) through and nothing else", () => {
  assertEquals(safeHttpUrl("https://openai.com/gptbot"), "https://openai.com/gptbot");
  for (const h of HOSTILE) assertEquals(safeHttpUrl(h), null, h);
});

Deno.test("[href] the products section of a hostile record links to no javascript: or data: URL", () => {
  const record = visibilityRecord("site.test", {
    score: 50,
    grade: "C",
    pillarScores: [50, 50, 50, 50, 50, 50],
    issues: [],
  });
  const signal = record.result!.pillars[0].signals[0];
  signal.id = "access.edge";
  signal.crawlers = HOSTILE.map((h, i) => ({
    token: `Bot${i}`,
    vendor: `Vendor ${i}`,
    purpose: "search",
    robots: "allowed",
    preference: null,
    edge: "HTTP 200",
    edgeRefused: false,
    docs: h,
    ipRanges: h,
    checked: "2026-12-06",
  }));
  signal.crawlers.push({ ...signal.crawlers[0], token: "GoodBot", docs: "https://good.example/" });
  // A registry crawler too, so the product table (and its crawlers' details) is rendered as well.
  signal.crawlers.push({ ...signal.crawlers[0], token: "OAI-SearchBot", vendor: "OpenAI" });
  const html = renderToString(<ProductsSection record={record} />);
  assertOnlyHttp(html, "products section");
  // The hostile rows are still shown, as text; the good one is a link.
  assert(html.includes("Vendor 0"));
  assert(linkTargets(html).includes("https://good.example/"));
});
