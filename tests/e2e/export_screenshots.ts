/**
 * The screenshots of docs/export.md: the compare page (three fixture sites scanned through the
 * API, one never scanned) and the HTML export of a report, in Debian's Chromium. Run again after
 * changing either:
 *
 *   deno task build && deno run -A tests/e2e/export_screenshots.ts
 */
import { launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { PIPELINE } from "../helpers/app_env.ts";
import { comparePagePath, reportDownloadPath } from "../../lib/kit/report_urls.ts";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;

if (import.meta.main) {
  await Deno.mkdir(OUT, { recursive: true });
  const server = await startWebServer();
  const browser = await launchBrowser();
  try {
    const scanned = ["good.test", "no-llms.test", "blanket-disallow.test"];
    for (const domain of scanned) {
      const res = await server.env.scan({ url: domain }, {
        ip: "203.0.113.10",
        auth: `Bearer ${PIPELINE}`,
      });
      await res.body?.cancel();
      for (let i = 0; i < 300 && !(await server.env.store.getScan(domain)); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}${comparePagePath([...scanned, "never-scanned.example"])}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `${OUT}compare-desktop.png`, fullPage: true });
    console.log(`${OUT}compare-desktop.png`);
    const html = await (await fetch(`${server.url}${reportDownloadPath("no-llms.test", "html")}`))
      .text();
    // A fresh page, as a file opened from disk: the compare page's own CSP must not apply.
    const file = await context.newPage();
    await file.setContent(html, { waitUntil: "load" });
    await file.screenshot({ path: `${OUT}export-html-desktop.png` });
    console.log(`${OUT}export-html-desktop.png`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}
