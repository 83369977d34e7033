/**
 * The screenshots of docs/history.md: a site scanned three times (real scans of fixture sites: its
 * search crawlers blocked, then allowed, then its llms.txt gone), its report with what changed and
 * the score trend, and one kept scan's page, in Debian's Chromium. Run again after changing them:
 *
 *   deno task build && deno run -A tests/e2e/history_screenshots.ts
 */
import { launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { scanSite } from "../../lib/engines/visibility/scan.ts";
import { startScanEnv } from "../helpers/scan_env.ts";
import type { ScanJob } from "../../lib/kit/storage/store.ts";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;

if (import.meta.main) {
  await Deno.mkdir(OUT, { recursive: true });
  const server = await startWebServer({ worker: false });
  const scanEnv = await startScanEnv();
  const browser = await launchBrowser();
  try {
    const now = Date.now();
    const ids: string[] = [];
    const sites = ["blocks-search.test", "good.test", "no-llms.test"];
    for (const [i, site] of sites.entries()) {
      const at = now - (sites.length - i) * 24 * 3600_000;
      const { record } = await scanSite(site, {
        config: scanEnv.config,
        now: () => new Date(at),
        offSiteCache: scanEnv.cache(),
      });
      const id = crypto.randomUUID();
      ids.push(id);
      const job: ScanJob = {
        kind: "scan",
        service: "visibility",
        jobId: id,
        target: { domain: "shop.example", url: "https://shop.example/", host: "shop.example" },
        credential: "pipeline",
        enqueuedAt: at,
      };
      await server.env.store.finishScan(job, {
        record: { ...record, domain: "shop.example" },
        failure: null,
        credential: "pipeline",
        durationMs: 1,
        jobId: id,
      });
    }
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } }))
      .newPage();
    await page.goto(`${server.url}/report/shop.example`);
    await page.locator(".report-changes").screenshot({ path: `${OUT}history-changes.png` });
    await page.locator(".report-history").screenshot({ path: `${OUT}history-list.png` });
    await page.goto(`${server.url}/report/shop.example/scans/${ids[1]}`);
    await page.screenshot({ path: `${OUT}history-kept-scan.png` });
    console.log(`Wrote ${OUT}history-{changes,list,kept-scan}.png`);
  } finally {
    await browser.close();
    await scanEnv.close();
    await server.close();
  }
}
