/**
 * The screenshots in docs/screenshots/ (the README shows one): the app served on loopback with the
 * fixture sites, scanned through the API, photographed in Debian's Chromium at desktop and phone
 * width, in light and dark mode, and at 320 px (the narrowest phone, docs/comfort.md). Run again
 * after changing the pages:
 *
 *   deno task screenshots
 */
import { launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { PIPELINE } from "../helpers/app_env.ts";
import { startEditableSite } from "../fixtures/editable_site.ts";
import { applyRobotsHow, pasteIntoHead } from "../helpers/apply_fix.ts";
import type { ScanRecord } from "../../lib/engines/visibility/record.ts";
import type { WebServer } from "./web_server.ts";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
/** Extra shots: [file suffix, viewport, colour scheme]. */
const COMFORT = [
  ["dark-desktop", VIEWPORTS.desktop, "dark"],
  ["dark-phone", VIEWPORTS.phone, "dark"],
  ["320", { width: 320, height: 640 }, "light"],
] as const;

/** Scans `domain` by API (forcing a new scan) and waits for the new record. */
async function scan(server: WebServer, domain: string): Promise<ScanRecord> {
  const before = (await server.env.store.getScan(domain))?.record.scannedAt;
  const res = await server.env.scan({ url: domain, forceRescan: true }, {
    ip: "203.0.113.10",
    auth: `Bearer ${PIPELINE}`,
  });
  await res.body?.cancel();
  for (let i = 0; i < 300; i++) {
    const stored = await server.env.store.getScan(domain);
    if (stored && stored.record.scannedAt !== before) return stored.record as ScanRecord;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no scan of ${domain}`);
}

/**
 * The report of the editable fixture site after its owner applied the report's fixes and scanned
 * again (as tests/e2e/rescan_browser_test.ts does): what changed leads the first screen.
 */
async function rescanned(server: WebServer, site: ReturnType<typeof startEditableSite>) {
  const first = await scan(server, site.host);
  const fix = (key: string) => first.result!.topIssues.find((i) => i.fix.cause?.key === key)!.fix;
  site.files.set(
    "/robots.txt",
    applyRobotsHow(site.files.get("/robots.txt")!, fix("robots.txt:ai-access").how),
  );
  site.files.set("/", pasteIntoHead(site.files.get("/")!, fix("home:json-ld").how));
  site.articleTemplate.fixed = true;
  server.env.clock.now = Date.now() + 3_600_000;
  await scan(server, site.host);
}

if (import.meta.main) {
  await Deno.mkdir(OUT, { recursive: true });
  const site = startEditableSite();
  const server = await startWebServer({ extraResolve: [site.resolve] });
  const browser = await launchBrowser();
  try {
    for (const domain of ["no-llms.test", "good.test", "edge-blocks-bots.test"]) {
      const res = await server.env.scan({ url: domain }, {
        ip: "203.0.113.10",
        auth: `Bearer ${PIPELINE}`,
      });
      await res.body?.cancel();
      for (let i = 0; i < 300 && !(await server.env.store.getScan(domain)); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await rescanned(server, site);
    const shots: [string, string][] = [
      ["report-rescan", `/report/${site.host}`],
      ["report", "/report/no-llms.test"],
      ["report-good", "/report/good.test"],
      ["report-capped", "/report/edge-blocks-bots.test"],
      ["learn", "/learn/access.edge"],
      ["home", "/"],
    ];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      for (const [name, path] of shots) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState("networkidle");
        const file = `${OUT}${name}-${size}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
    for (const [suffix, viewport, colorScheme] of COMFORT) {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      for (const [name, path] of [...shots, ["docs", "/docs"]]) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState("networkidle");
        const file = `${OUT}${name}-${suffix}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await site.close();
  }
}
