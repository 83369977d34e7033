/**
 * The Schema Markup Generator's one view of a page, end to end in Chromium: the fixture pages
 * whose script injects a Product (jsonld.test/), changes the server HTML's Product
 * (jsonld.test/changed) and removes its Event (jsonld.test/removed) are scanned by the worker,
 * which renders them (the schema service renders by default where a browser is at hand), and each
 * page's report is read at 1280 and 390 px: the summary's counts must be what the sections list
 * (the items table, the rich results, the findings, the server HTML beside the rendered page),
 * with nothing wider than the screen. Also: /validate opens at its result.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { schemaService } from "../../lib/features/schema/service.ts";
import { pageReportPath } from "../../lib/kit/report_urls.ts";
import { PIPELINE } from "../helpers/app_env.ts";
import { startRenderSites } from "../fixtures/render_sites.ts";
import { browserTest, DESKTOP, hasChromium, PHONE, SCREENSHOTS } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the schema view browser tests are SKIPPED");
}

/** Scans a page by API and follows the scan by its status until it is done. */
async function scanned(s: WebServer, url: string): Promise<void> {
  const res = await s.env.scan({ url }, { ip: "203.0.113.20", auth: `Bearer ${PIPELINE}` });
  assert.equal(res.status, 202, await res.clone().text());
  const { scanId } = await res.json();
  for (let i = 0; i < 10_000; i++) {
    const status = await s.env.app.request(`/api/scans/${scanId}`);
    const body = status.ok ? await status.json() : (await status.body?.cancel(), null);
    if (body?.status === "done") return;
    assert.notEqual(body?.status, "failed", JSON.stringify(body));
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`the scan of ${url} did not finish`);
}

/** What the report page shows: the summary's counts and what each section lists. */
async function readReport(page: Page) {
  return await page.evaluate(() => {
    const count = (name: string) =>
      Number(document.querySelector(`[data-count="${name}"] strong`)?.textContent ?? 0);
    const rows = [...document.querySelectorAll("#detected-title ~ .table-wrap tbody tr")];
    const eligibleItems = new Set(
      [...document.querySelectorAll("#eligibility-title ~ ul .finding")].filter((li) =>
        !/^Not eligible/.test(li.querySelector(".badge")?.textContent ?? "")
      ).map((li) => /\(([^:]+ item \d+):/.exec(li.textContent ?? "")?.[1]),
    );
    const badges = [...document.querySelectorAll(".finding-group .finding > .badge")].map((b) =>
      b.textContent
    );
    return {
      summary: {
        items: count("items"),
        removed: count("removed"),
        errors: count("errors"),
        warnings: count("warnings"),
        eligible: count("eligible"),
      },
      breakdown: document.querySelector('[data-count="items"]')?.textContent ?? "",
      readers: document.querySelector(".summary .readers")?.textContent ?? "",
      rows: rows.map((r) => ({
        origin: r.getAttribute("data-origin"),
        types: r.querySelector("td:nth-child(2)")?.textContent ?? "",
      })),
      eligibleItems: eligibleItems.size,
      eligibilityTypes: [...document.querySelectorAll("#eligibility-title ~ ul .finding")].map((
        li,
      ) => li.textContent ?? ""),
      errors: badges.filter((b) => b === "Error").length,
      warnings: badges.filter((b) => b === "Warning").length,
      moved: document.querySelectorAll("#view-title ~ .card .view-items li").length,
      wider: document.documentElement.scrollWidth > globalThis.innerWidth,
    };
  });
}

browserTest(
  "schema report: the summary's counts are the sections' items, for injected, changed and removed markup (1280 and 390 px)",
  async (browser) => {
    const sites = startRenderSites();
    const s = await startWebServer({
      service: schemaService,
      extraResolve: sites.scanResolve.split(","),
      env: { RENDER_BUDGET_MS: "40000", RENDER_PAGE_MS: "8000" },
    });
    try {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const cases = [
        { path: "/", origin: "added", type: "Product" },
        { path: "/changed", origin: "changed", type: "Product" },
        { path: "/removed", origin: "removed", type: "Event" },
      ];
      for (const c of cases) {
        const url = `http://jsonld.test${c.path}`;
        await scanned(s, url);
        await page.goto(`${s.url}${pageReportPath("jsonld.test", url)}`);
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport);
          const r = await readReport(page);
          const where = `${c.path} at ${viewport.width} px`;
          // The item the script touched is listed with its origin.
          assert.ok(
            r.rows.some((row) => row.origin === c.origin && row.types.includes(c.type)),
            `${where}: ${JSON.stringify(r.rows)}`,
          );
          // Items found: what Google reads, i.e. every row but those scripts removed.
          const seen = r.rows.filter((row) => row.origin !== "removed");
          assert.equal(r.summary.items, seen.length, `${where}: items`);
          assert.equal(
            r.summary.removed,
            r.rows.length - seen.length,
            `${where}: removed`,
          );
          // Eligible items: the items the rich-results section calls (at least) eligible.
          assert.equal(r.summary.eligible, r.eligibleItems, `${where}: eligible`);
          // Errors and warnings: the badges of the findings section.
          assert.equal(r.summary.errors, r.errors, `${where}: errors`);
          assert.equal(r.summary.warnings, r.warnings, `${where}: warnings`);
          // The server HTML and the rendered page: one line per item scripts touched.
          assert.equal(
            r.moved,
            r.rows.filter((row) => row.origin !== "server").length,
            `${where}: the view section`,
          );
          assert.match(r.readers, /Googlebot and Applebot \(they render the page\) read \d+ item/);
          assert.equal(r.wider, false, `${where}: nothing wider than the screen`);
          await Deno.mkdir(SCREENSHOTS, { recursive: true });
          await page.screenshot({
            path: `${SCREENSHOTS}schema-view-${c.origin}-${viewport.width}.png`,
            fullPage: true,
          });
        }
        // "Scan again" keeps the render choice: its box is there, ticked (this scan rendered).
        const box = page.locator(".rescan-form input[name=render]");
        assert.equal(await box.isVisible(), true, "the rescan form offers rendering");
        assert.equal(await box.isChecked(), true, "and keeps this scan's choice");
        const r = await readReport(page);
        if (c.origin === "added") {
          assert.match(r.breakdown, /1 in the server HTML, 1 added by scripts/);
          assert.ok(
            r.eligibilityTypes.some((t) => /Product/.test(t)),
            "the added Product's rich results",
          );
        }
        if (c.origin === "changed") assert.match(r.breakdown, /1 changed by scripts/);
        if (c.origin === "removed") {
          assert.equal(r.summary.removed, 1);
          assert.ok(!r.eligibilityTypes.some((t) => /Event/.test(t)), "no rich result for it");
        }
      }
    } finally {
      await s.close();
      await sites.close();
    }
  },
);

browserTest("/validate: the answer opens at its result, errors first", async (browser) => {
  const s = await startWebServer({ service: schemaService, worker: false });
  try {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    await page.goto(`${s.url}/validate`);
    await page.locator("#validate-code").fill(
      JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Kettle" }),
    );
    await Promise.all([
      page.waitForURL("**/validate#result"),
      page.locator(".validate-form button[type=submit]").click(),
    ]);
    await page.locator("#result .finding-group").first().waitFor();
    const at = await page.evaluate(() => {
      const box = document.getElementById("result")!.getBoundingClientRect();
      return { top: box.top, height: globalThis.innerHeight, scrolled: globalThis.scrollY };
    });
    assert.ok(at.scrolled > 0, "the page scrolled");
    assert.ok(at.top >= -1 && at.top < at.height, JSON.stringify(at));
    const first = await page.locator("#result .finding-group .finding .badge").first()
      .textContent();
    assert.equal(first, "Error");
  } finally {
    await s.close();
  }
});
