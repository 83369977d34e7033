/**
 * The HTML export in a real browser (Debian's Chromium through npm:playwright-core): opened as a
 * file would be, it runs no script, requests nothing, breaks no rule of its own CSP, applies its
 * inline styles, and prints to a PDF.
 */
import assert from "node:assert/strict";
import { renderExport } from "../../lib/engines/export/export.ts";
import { schemaRecord, visibilityRecord } from "../helpers/records.ts";
import { hasChromium, launchBrowser } from "./browser.ts";
import { schemaService } from "../../lib/features/schema/service.ts";
import { visibilityService } from "../../lib/features/visibility/service.ts";

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the HTML export browser test is SKIPPED");
}

Deno.test({
  name: "[browser] the HTML export runs nothing, loads nothing, keeps its styles and prints",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const browser = await launchBrowser();
    try {
      const exports = [
        renderExport({
          service: visibilityService,
          record: visibilityRecord("shop.example", {
            score: 58,
            grade: "D",
            pillarScores: [90, 40, 55],
            issues: [{ id: "structured.jsonld", impact: "high" }, { id: "content.faq" }],
            hostile: true,
          }),
          failure: null,
          reportUrl: "https://checker.example/report/shop.example",
        }, "html"),
        renderExport({
          service: schemaService,
          record: schemaRecord("shop.example", true),
          failure: null,
        }, "html"),
      ];
      for (const html of exports) {
        const page = await browser.newPage();
        const requests: string[] = [];
        const problems: string[] = [];
        await page.route("**/*", (route) => {
          requests.push(route.request().url());
          return route.abort();
        });
        page.on("console", (m) => problems.push(m.text()));
        page.on("pageerror", (e) => problems.push(e.message));
        page.on("dialog", (d) => {
          problems.push(`dialog: ${d.message()}`);
          return d.dismiss();
        });
        await page.setContent(html, { waitUntil: "load" });
        const seen = await page.evaluate(() => ({
          scripts: document.scripts.length,
          images: document.images.length,
          collapse: getComputedStyle(document.querySelector("table")!).borderCollapse,
          title: document.title,
        }));
        assert.equal(seen.scripts, 0);
        assert.equal(seen.images, 0);
        assert.equal(seen.collapse, "collapse", "the inline styles apply under the CSP");
        assert.match(seen.title, /report: shop\.example$/);
        assert.deepEqual(requests, [], "nothing is requested");
        assert.deepEqual(problems, [], "no CSP report, error or alert");
        const pdf = await page.pdf({ format: "A4" });
        assert.equal(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
        assert.ok(pdf.byteLength > 10_000, `a real document: ${pdf.byteLength} bytes`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});
